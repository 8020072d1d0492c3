#!/usr/bin/env bash
# Session 26, call 4 (<= 590 s): the nvfp4_gemm and swiglu suites on the settled timing (each
# replay behind a spin kernel) with the sustained rows from M = 256, nvidia-smi sampled
# alongside ($OUT/smi.csv: does the spin keep the clocks up?).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session26_suites.sh
source "$(dirname "$0")/../device_common.sh"
warm_suites
wait
echo "warm-up done after $(elapsed) s"; grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
(nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
   --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1) &
smi=$!
budget=575
for i in 4 5 6 0 1 2 3; do
  left=$(( budget - 60 - $(elapsed) )); [ "$left" -gt 25 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
done
for i in 1 2 3 4 0; do
  left=$(( budget - $(elapsed) )); [ "$left" -gt 20 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench swiglu --out /tmp/swiglu$i >> "$OUT/bench-swiglu.log" 2>&1; echo "swiglu shape $i exit $? at $(elapsed) s"
done
kill $smi 2>/dev/null
grep -E "permuted +M=(1|16|64|256|1024) |sustained" "$OUT/bench-gemm.log" | head -70
grep -E "permuted +M=(1|64|256|1024) |sustained" "$OUT/bench-swiglu.log" | head -40
