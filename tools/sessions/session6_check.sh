#!/usr/bin/env bash
# The quantization tests after the small-sample fix of the exp-mismatch bound, and the
# stream-K cut-cost probe (tools/concurrency_probe.py). Usage: source .gpu/setup.sh; bash tools/sessions/session6_check.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py -rA &
CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/concurrency_probe.py > /tmp/logs/warm-conc.log 2>&1
wait
tail -1 /tmp/logs/t-quant.log; grep -E "^FAILED|^E  |exp mismatch|codes and" /tmp/logs/t-quant.log | head -12
grep -A8 Traceback /tmp/logs/warm-conc.log | tail -8
timeout 120 python tools/concurrency_probe.py 2>&1 | tee "$OUT/concurrency.log"
echo "done after $(elapsed) s"
