#!/usr/bin/env bash
# Session 25's last device seconds: the quantization kernel's split tail (the items left after
# whole rounds as half items) against cmp6tp at plain M = 4096 K = 5120 / 7168 and M = 16384
# K = 5120; its bit tests and memcheck first (~90 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_split_tail.sh
source "$(dirname "$0")/../device_common.sh"
warm_points quant_bw_probe 70 0 1 4
gpu_tests 80 /tmp/logs/t-split.log tests/test_nvfp4_quant.py -k "split_tail" &
(timeout 80 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
   python tools/split_tail_sanitize.py > /tmp/logs/memcheck.log 2>&1
 echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' /tmp/logs/memcheck.log | tail -1)" > "$OUT/memcheck.txt") &
wait
echo "done after $(elapsed) s: $(tail -1 /tmp/logs/t-split.log)"; grep -E "^FAILED|^E  " /tmp/logs/t-split.log | head -5
cat "$OUT/memcheck.txt"; grep -h -A6 Traceback /tmp/logs/warm-*.log | tail -6
CUTE_KERNELS_BENCH_SHAPES=0,1,4 timeout 45 python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
echo "done after $(elapsed) s"
