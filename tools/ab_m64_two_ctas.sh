#!/usr/bin/env bash
# Session 20 (lean, no tests: the last ~160 s of device time): branch m64-two-ctas against main
# through the public functions, two rounds, on the points it moves: 64-token stream-K tiles at
# two CTAs an SM with >= 150 units an SM (the fused kernel with two K groups, 3 stages),
# 5120x17408 at 9..16 fp4 tokens in the wgmma kernel (WGMMA_FROM_9_MIN_UNITS 80), 7168x18432
# as the unchanged control. M = 16, 64.
# Prepare on the CPU (carry [".gpu", "ab_main"]):
#   rm -rf ab_main && mkdir ab_main && git archive main cute_kernels layouts | tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_m64_two_ctas.sh   (~120 s)
source "$(dirname "$0")/device_common.sh"
export LOOP_MS=${LOOP_MS:-16,64}
points=(0 1 2 3 7 8)  # loop_ab_probe: 7168x18432, 5120x17408, 36864x7168, 34816x5120, fused two
for dir in ab_main .; do
  for i in "${points[@]}"; do
    ab_probe "$dir" 60 CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i > "/tmp/logs/warm-ab-${dir//[.\/]/_}$i.log" 2>&1 &
  done
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
export CUTE_KERNELS_BENCH_SHAPES=$(IFS=,; echo "${points[*]}")
ab_rounds 40 2 ab_main .
echo "done after $(elapsed) s"
