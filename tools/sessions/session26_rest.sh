#!/usr/bin/env bash
# Session 26, call 5 (<= 420 s): the quant suite alone on the settled timing, then the swiglu
# suite's shapes call 4 did not reach (4096x7168, 34816x5120, 36864x7168); the timing test;
# plain_route_probe at 4096x7168 and 7168x2048 M = 256 (settled, 200 calls a graph).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session26_rest.sh
source "$(dirname "$0")/../device_common.sh"
for i in 3 4 0; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python -m cute_kernels.bench quant --out /tmp/warmq > /tmp/logs/warm-quant.log 2>&1 &
gpu_tests 90 /tmp/logs/t-timing.log tests/test_bench_timing.py &
warm_points plain_route_probe 200 5 6
wait
echo "warm-up done after $(elapsed) s: timing test $(tail -1 /tmp/logs/t-timing.log)"
grep -E "^E  " /tmp/logs/t-timing.log | head -5; grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
timeout 150 python -m cute_kernels.bench quant --out "$OUT" > "$OUT/quant.log" 2>&1
echo "quant exit $? at $(elapsed) s"
budget=410
for i in 3 4 0; do
  left=$(( budget - $(elapsed) )); [ "$left" -gt 20 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench swiglu --out /tmp/swiglu$i >> "$OUT/bench-swiglu.log" 2>&1; echo "swiglu shape $i exit $? at $(elapsed) s"
done
left=$(( 520 - $(elapsed) ))
[ "$left" -gt 40 ] && CUTE_KERNELS_PROBE_CALLS=200 CUTE_KERNELS_BENCH_SHAPES=5,6 timeout "$left" \
  python tools/plain_route_probe.py 2>&1 | tee "$OUT/plain_route.log"
echo "done after $(elapsed) s"
grep -E "permuted M=(1|16|64|256|1024|4096|16384) |sustained" "$OUT/bench-swiglu.log" | cut -c1-200 | head -40
grep -E "M=(1|8|64|4096|16384) " "$OUT/quant.log" | cut -c1-150 | head -40
