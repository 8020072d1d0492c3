#!/usr/bin/env bash
# Session 18 (run on branch two-ctas at 7bfc590, H200 2026-11-30: notes/raw/s18-ab-two-ctas/;
# main then took two CTAs per SM for the plain GEMM's 32-token stream-K tiles only, with two K
# groups, and the wgmma kernel from 9 fp4 tokens with a higher bar for the fused op; see
# ``stream_k_ctas`` and ``wgmma_from_9_tokens``). Prepared in session 17: two CTAs per SM for the
# wgmma kernel's 32- and 64-token stream-K tiles on weights with >= 150 (tile, 64-K) units an
# SM (36864x7168, 34816x5120: ``stream_k_ctas``), plain and fused, and W4A4 at 9..16 tokens
# in the wgmma kernel on 7168x18432, 36864x7168, 34816x5120 (``wgmma_from_9_tokens``; the
# fused op there through its fp32 route on the plain launch),
# through the public functions at M = 16, 32 and 64 (``ab_public_large_m`` in device_common.sh;
# tests and sanitizers on the tree):
#   ab_main/   main: one CTA per SM
#   ab_nokg/   this branch with TWO_CTAS_K_GROUPS = False (32-token tiles: one K group a stage
#              beside two CTAs)
#   .          this branch: two CTAs per SM, two K groups a stage at 32 tokens as on main
# Prepare on the CPU (both copies are git-ignored and carried: carry [".gpu", "ab_main",
# "ab_nokg"]):
#   rm -rf ab_main ab_nokg && mkdir ab_main ab_nokg
#   git archive 46d613c cute_kernels layouts | tar -x -C ab_main   (main before the merge)
#   git archive 7bfc590 cute_kernels layouts | tar -x -C ab_nokg
#   sed -i 's/^TWO_CTAS_K_GROUPS = True/TWO_CTAS_K_GROUPS = False/' ab_nokg/cute_kernels/large_m_plans.py
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_two_ctas.sh   (~350-480 s)
source "$(dirname "$0")/device_common.sh"
grep -q "^TWO_CTAS_K_GROUPS = False" ab_nokg/cute_kernels/large_m_plans.py || { echo "ab_nokg/ not prepared"; exit 2; }
LOOP_MS=${LOOP_MS:-16,32,64} ab_public_large_m ab_main ab_nokg .
echo "done after $(elapsed) s"
