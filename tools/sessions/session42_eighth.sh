#!/usr/bin/env bash
# Session 42's eighth call (~300 s): the one-token PDL rule (``PDL_ONE_TOKEN``: 5120x17408's
# K split triggered at the start, 8-warp launches after the main loop): its GPU chain tests,
# the PDL and model tests, tools/m1_pdl_probe.py against the rule switched off at more
# 8-warp points, then the nvfp4_gemm suite's 5120x17408 and 4096x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_eighth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points m1_pdl_probe 200 0 1 2 3 4 5 6 7 8
warm_suite nvfp4_gemm 1 5
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "one_token_pdl or chain or graph or replay" &
gpu_tests 300 /tmp/logs/t-models.log tests/models tests/test_pdl_trigger.py &
report_warm_and_tests
timeout 200 python tools/m1_pdl_probe.py 2>&1 | tee "$OUT/m1_pdl_probe.log"
run_suite nvfp4_gemm 100 1 5
suite_lines "1|4|8|16|64|256|1024"
echo "done after $(elapsed) s"
