#!/usr/bin/env bash
# Session 25, last call: the quantization GPU tests and memcheck on launch_config's final rule
# (the next item's loads in flight up to PREFETCH_ELEMENTS: plain 6 CTAs an SM, fused 8; past
# it plain 9, fused 12; all with the early PDL trigger), the quant suite (issue 4's table),
# then the swiglu suite (issue 6's crossover table on session 24's routes and the faster
# quantization in the unfused pair) with the time left, its shapes compiled beside the quant
# suite.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_final.sh   (~570 s)
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4; do  # compiles only, on the CPU (each kernel runs once)
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
# (wrong, as call 5 showed: the warm-up processes run each kernel once, and beside them the
# quant suite's copy ceiling read 3.17 TB/s; session25_quant_suite.sh reran it alone)
timeout 200 python -m cute_kernels.bench quant --out "$OUT" > "$OUT/quant.log" 2>&1
echo "quant exit $? at $(elapsed) s"
grep -v "^ *$" "$OUT/quant.log" | head -20
gpu_tests 150 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py tests/test_silu_mul.py &
quant_sanitize memcheck &
quant_report
left=$(( 570 - $(elapsed) ))
echo "swiglu suite with $left s left"
timeout "$left" python -m cute_kernels.bench swiglu --out "$OUT/swiglu" > "$OUT/bench-swiglu.log" 2>&1
echo "swiglu exit $? at $(elapsed) s"
tail -c 5000 "$OUT/bench-swiglu.log"
