#!/usr/bin/env bash
# Session 48, second call (~300 s): act_decode at narrow token tiles (the producer warpgroup's
# warps 1..3 decode the NVFP4 activations into the stages): its GPU tests (the pass's bits),
# memcheck / racecheck on its launches, then tools/act_decode_route_probe.py (the public
# function with the pass / with the decode) at twelve issue-5 points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session48_decode.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 250 /tmp/logs/t-act.log tests/test_act_decode.py &
warm_points act_decode_route_probe 200 0 1 2 3 4 5 6 7 8 9 10 11
report_warm "warm-up + tests"
test_summary
cp /tmp/logs/t-act.log "$OUT/"
sanitize_script sanitize_act_decode
run_points act_decode_route_probe 300 0 1 2 3 4 5 6 7 8 9 10 11
echo "done after $(elapsed) s"
