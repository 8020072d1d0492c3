#!/usr/bin/env bash
# Branch permuted-weights, after session10_permuted.sh passed: the demo (the models hold
# permuted words on CUDA) and, for comparison, the demo with CUTE_KERNELS_PERMUTED_WEIGHTS=0,
# then the swiglu suite.
# Usage on the lent H200 (branch checked out): source .gpu/setup.sh; bash tools/session10_permuted_demo.sh
source "$(dirname "$0")/device_common.sh"
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 250 python -m models.demo > /tmp/logs/warm-demo.log 2>&1 &
CUTE_KERNELS_PERMUTED_WEIGHTS=0 CUTE_KERNELS_BENCH_WARM=1 timeout 250 python -m models.demo > /tmp/logs/warm-demo0.log 2>&1 &
wait
echo "warm-up done after $(elapsed) s"; grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
timeout 120 python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"
CUTE_KERNELS_PERMUTED_WEIGHTS=0 timeout 120 python -m models.demo > "$OUT/demo-standard.log" 2>&1; echo "standard demo exit $? at $(elapsed) s"
grep -E "M=1 " "$OUT/demo.log" "$OUT/demo-standard.log"
timeout $(( 590 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/bench-swiglu > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
