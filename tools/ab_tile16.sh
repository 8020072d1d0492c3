#!/usr/bin/env bash
# Session 18 (run on branch tile16, H200 2026-11-30: notes/raw/s18-ab-tile16/; merged: 2-6%
# faster where it applies, the same output bits): the plain GEMM's stream-K launch with
# 16-token tiles at M <= 16 (TILE_16_MAX_M;
# W4A4 at 9..16 on 7168x18432, 36864x7168, 34816x5120, the fused op's fp32 route on
# 36864x7168, W4A16 at 9..16) against main's 32-token tiles, through the public functions at
# M = 12 and 16, W4A16 too (``ab_public_large_m`` in device_common.sh; tests and sanitizers on
# the tree; the outputs should be the same bits: the same K order and stream-K cuts).
#   ab_main/   main
#   .          this tree
# Prepare on the CPU (git-ignored and carried: carry [".gpu", "ab_main"]):
#   rm -rf ab_main && mkdir ab_main && git archive main cute_kernels layouts | tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_tile16.sh   (~300 s)
source "$(dirname "$0")/device_common.sh"
export LOOP_W4A16=1 AB_POINTS=16
LOOP_MS=${LOOP_MS:-12,16} ab_public_large_m ab_main .
echo "done after $(elapsed) s"
