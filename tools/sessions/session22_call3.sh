#!/usr/bin/env bash
# Session 22's third device call: the staged epilogue (``NVFP4GemmLargeM._staged_store``).
# GPU tests (large-M, public GEMM, fused), memcheck and racecheck on tools/sanitize_probe.py
# and the epilogue probe's compiles in parallel, then tools/epilogue_probe.py timed (staged /
# direct / skip on 13 points).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_call3.sh   (~500 s)
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 240 & sanitize racecheck 280 & wait) &
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm.py &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
warm_points epilogue_probe 250 $(seq 0 12)
report_checks
timeout $(( 590 - $(elapsed) )) python tools/epilogue_probe.py 2>&1 | tee "$OUT/epilogue_probe.log"
echo "done after $(elapsed) s"
