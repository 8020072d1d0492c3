#!/usr/bin/env bash
# Session 19: branch near-miss through the public functions at M = 4, 16, 32, 64 (W4A16 too),
# two rounds, with the large-M / fused GPU tests and the sanitizers on the tree:
#   ab_main/  main
#   ab_two/   the branch with NARROW_STAGES only on two CTAs an SM (NARROW_STAGES_MIN_CTAS = 2;
#             merged so: the tree measured was the branch at 1, every narrow tile)
#   .         the branch: at most 5 stages for every 16/32-token tile, 7168x18432 at 3..8 tokens
#             (1, 1, 8, 1), the fused kernel's register prefetch on 1024x7168 at 33..64 tokens
# Prepare on the CPU (carry [".gpu", "ab_main", "ab_two"]):
#   rm -rf ab_main ab_two && mkdir ab_main ab_two
#   git archive main cute_kernels layouts | tar -x -C ab_main
#   git archive near-miss cute_kernels layouts | tar -x -C ab_two
#   sed -i 's/^NARROW_STAGES_MIN_CTAS = 1/NARROW_STAGES_MIN_CTAS = 2/' ab_two/cute_kernels/nvfp4_gemm_large_m.py
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_near_miss.sh   (~420 s)
source "$(dirname "$0")/device_common.sh"
grep -q "^NARROW_STAGES_MIN_CTAS = 2" ab_two/cute_kernels/nvfp4_gemm_large_m.py || { echo "ab_two/ not prepared"; exit 2; }
export LOOP_W4A16=1
AB_POINTS=16 LOOP_MS=${LOOP_MS:-4,16,32,64} ab_public_large_m ab_main ab_two .
echo "done after $(elapsed) s"
