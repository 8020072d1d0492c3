#!/usr/bin/env bash
# Next session's first device call: the stream-K hybrid (whole tiles, stream-K for the last one
# to two waves' worth; written in session 6, compile-tested only) -- its GPU tests, memcheck /
# racecheck, then tools/stream_k_probe.py (plain GEMM shapes only, "hy" columns from M = 512).
# Then run tools/sessions/session6_final.sh for the suites (the decode and counter changes of session 6
# are not in its suite tables yet).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session7_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py -k "stream_k or arrival" &
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "stream_k" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/stream_k_probe.py > /tmp/logs/warm-sk$i.log 2>&1 &
done
report_checks
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3,4,5,6 timeout 300 python tools/stream_k_probe.py 2>&1 | tee "$OUT/stream_k_probe.log"
echo "done after $(elapsed) s"
