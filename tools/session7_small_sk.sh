#!/usr/bin/env bash
# Session 7: the small-M kernel in stream-K over warps (nvfp4_gemm_small_m_stream_k): its GPU
# tests, memcheck / racecheck (tools/sanitize_probe.py launches it), then
# tools/small_stream_k_probe.py against the default small-M launches on the seven shapes.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session7_small_sk.sh
source "$(dirname "$0")/device_common.sh"
gpu_tests 200 /tmp/logs/t-small-sk.log tests/test_nvfp4_gemm.py -k "stream_k" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/small_stream_k_probe.py > /tmp/logs/warm-ssk$i.log 2>&1 &
done
report_checks
grep -h -A8 Traceback /tmp/logs/warm-ssk*.log | tail -12
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3,4,5,6 timeout 300 python tools/small_stream_k_probe.py 2>&1 | tee "$OUT/small_stream_k_probe.log"
echo "done after $(elapsed) s"
