#!/usr/bin/env bash
# Session 18 (prepared on the CPU, not yet run): the fused SwiGLU kernel itself on
# ``nvfp4_gemm``'s 16- / 32-token stream-K launch (its CTAs per SM and K groups a stage:
# ``FUSED_NARROW_TILES``, route "narrow") where main takes the fp32 route (the plain GEMM
# writing fp32 pre-activations, then the fp32 SwiGLU quantizer): 36864x7168 at 9..32 tokens,
# 34816x5120 at 9..32 (at 9..16 main keeps the small-M fused kernel there:
# ``WGMMA_FROM_9_FUSED_MIN_UNITS`` 200 -> 120 on this branch), 9216x7168 at 17..32. Through
# the public functions at M = 12, 16, 32 (``ab_public_large_m`` in
# device_common.sh; tests and sanitizers on the tree; where the route changed the outputs
# may differ from main's in the last bits: both follow the op's fp32 rule, through different
# code).
#   ab_main/   main
#   ab_tc/     main with TWO_CTAS_MIN_UNITS = 120: two CTAs per SM also on 7168x18432's 16- and
#              32-token tiles (122 units an SM; notes item 00b), the plain GEMM at 9..32 tokens
#   .          this tree (branch fused-narrow)
# Prepare on the CPU (git-ignored and carried: carry [".gpu", "ab_main", "ab_tc"]):
#   rm -rf ab_main ab_tc && mkdir ab_main ab_tc
#   git archive main cute_kernels layouts | tar -x -C ab_main
#   git archive main cute_kernels layouts | tar -x -C ab_tc
#   sed -i 's/^TWO_CTAS_MIN_UNITS = 150/TWO_CTAS_MIN_UNITS = 120/' ab_tc/cute_kernels/large_m_plans.py
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_fused_narrow.sh   (~300 s)
source "$(dirname "$0")/device_common.sh"
grep -q "^TWO_CTAS_MIN_UNITS = 120" ab_tc/cute_kernels/large_m_plans.py || { echo "ab_tc/ not prepared"; exit 2; }
LOOP_MS=${LOOP_MS:-12,16,32} ab_public_large_m ab_main ab_tc .
echo "done after $(elapsed) s"
