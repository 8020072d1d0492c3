#!/usr/bin/env bash
# Next session's second device call: the swiglu suite, the demo and the nvfp4_gemm suite (cache
# filled first by one warm-up process per suite shape), until 560 s after the start.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session8_suites.sh
source "$(dirname "$0")/device_common.sh"
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > /tmp/logs/warm-gemm$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"
final_suites 560
