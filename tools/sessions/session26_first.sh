#!/usr/bin/env bash
# Prepared in session 25 for session 26's first call (~480 s):
# 1. the quantization kernel's split tail (built after session 25's last device call): its
#    bit tests, memcheck, and quant_bw_probe at plain M = 4096 K = 5120 / 7168, M = 16384
#    K = 5120 (cmp6tps against cmp6tp, the default);
# 2. plain_route_probe with 200 calls a graph (the nvfp4_gemm suite's count) against 20 at
#    5120x17408 M = 256 (suite 83.1 us, probe 71.5: the suite's sustained load?), and at
#    M = 1024 on the three shapes session 25 re-planned;
# 3. the nvfp4_gemm suite on those three shapes (7168x18432, 5120x17408, 7168x2048).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session26_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points quant_bw_probe 120 0 1 4
warm_points plain_route_probe 200 1 12 13 14
for i in 0 1 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > /tmp/logs/warm-gemm$i.log 2>&1 &
done
gpu_tests 150 /tmp/logs/t-split.log tests/test_nvfp4_quant.py -k "split_tail" &
(timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
   python tools/split_tail_sanitize.py > /tmp/logs/memcheck.log 2>&1
 echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' /tmp/logs/memcheck.log | tail -1)" > "$OUT/memcheck.txt") &
wait
echo "warm-up done after $(elapsed) s: $(tail -1 /tmp/logs/t-split.log)"
grep -E "^FAILED|^E  " /tmp/logs/t-split.log | head -5; cat "$OUT/memcheck.txt"
grep -h -A6 Traceback /tmp/logs/warm-*.log | tail -6
CUTE_KERNELS_BENCH_SHAPES=0,1,4 timeout 60 python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
for calls in 20 200; do
  CUTE_KERNELS_PROBE_CALLS=$calls CUTE_KERNELS_BENCH_SHAPES=1,12,13,14 timeout 150 \
    python tools/plain_route_probe.py 2>&1 | tee "$OUT/plain_route_$calls.log"
done
for i in 0 1 6; do
  left=$(( 560 - $(elapsed) )); [ "$left" -gt 30 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
done
grep -E "permuted M=(256|1024) " "$OUT/bench-gemm.log"
