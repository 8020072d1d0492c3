#!/usr/bin/env bash
# Prepared in session 20 (its device time ran out): branch m64-two-ctas against main through the
# public functions at M = 12, 16, 48, 64 (W4A16 too), two rounds, with the large-M / fused GPU
# tests (64-token cases in test_two_ctas_per_sm_agree and test_large_m_two_ctas_and_k_groups)
# and the sanitizers (tools/sanitize_probe.py has the fused 64-token two-CTA launches). The
# branch: 64-token stream-K tiles at two CTAs an SM with >= 150 units an SM, 5 stages (the fused
# kernel with two K groups, 3 stages: fused_stream_k_options); 5120x17408 at 9..16 fp4 tokens in
# the wgmma kernel (WGMMA_FROM_9_MIN_UNITS 80). From tools/grouped_stages_probe.py (session 20).
# Prepare on the CPU (carry [".gpu", "ab_main"]):
#   rm -rf ab_main && mkdir ab_main && git archive main cute_kernels layouts | tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_m64_two_ctas.sh   (~380 s)
source "$(dirname "$0")/device_common.sh"
export LOOP_W4A16=1
AB_POINTS=16 LOOP_MS=${LOOP_MS:-12,16,48,64} ab_public_large_m ab_main .
echo "done after $(elapsed) s"
