#!/usr/bin/env bash
# Session 53 (~250 s): tools/narrow_whole_probe.py, nvfp4_gemm's 256-token stream-K plans
# against whole 128-token tiles that fill one wave (8 points; "plan" is the new rule,
# "stream_k" the old plan), with the new rule's GPU test; then tools/pieces_epilogue_probe.py
# (the fused epilogue's cost on the "pieces" launches of 1024x7168 M = 512 / 1024).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session53_narrow_whole.sh
source "$(dirname "$0")/../device_common.sh"
POINTS=$(seq -s ' ' 0 7)
warm_points narrow_whole_probe 300 $POINTS
warm_points pieces_epilogue_probe 300 0 1
gpu_tests 300 /tmp/logs/t-large-m.log tests/test_nvfp4_gemm_large_m.py -k "narrow_whole or plain_plan" &
report_warm_and_tests
run_points narrow_whole_probe 280 $POINTS
run_points pieces_epilogue_probe 120 0 1
echo "done after $(elapsed) s"
