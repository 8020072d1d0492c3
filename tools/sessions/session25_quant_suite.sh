#!/usr/bin/env bash
# Session 25: the quant suite alone (call 5's ran beside the swiglu warm-up processes, whose
# kernels moved even the copy ceiling: 3.17 TB/s), then the nvfp4_gemm suite shape by shape
# after its shapes compiled, with the time left (~470 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_quant_suite.sh
source "$(dirname "$0")/../device_common.sh"
timeout 150 python -m cute_kernels.bench quant --out "$OUT" > "$OUT/quant.log" 2>&1
echo "quant exit $? at $(elapsed) s"
grep -v "^ *$" "$OUT/quant.log" | head -20
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > /tmp/logs/warm-gemm$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
for i in 4 5 6 0 1 2 3; do
  left=$(( 470 - $(elapsed) ))
  [ "$left" -gt 30 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
done
grep -E "M=(1|16|64|256|1024) " "$OUT/bench-gemm.log" | grep -v "w4a16\|packed" | head -60
