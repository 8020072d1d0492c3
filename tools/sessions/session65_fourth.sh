#!/usr/bin/env bash
# Session 65 call 4 (~420 s): tools/fitted_rule_probe.py (the fitted token tiles' rule against
# the plan without it, 35 points) and tests/test_fitted_tiles.py on the GPU.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_rule_probe 300 0,1,2,3,4 5,6,7,8,9 10,11,12,13,14 15,16,17,18,19 \
  20,21,22,23,24 25,26,27,28,29 30,31,32,33,34
gpu_tests 300 /tmp/logs/t-fitted.log tests/test_fitted_tiles.py &
report_warm
tail -3 /tmp/logs/t-fitted.log; cp /tmp/logs/t-fitted.log "$OUT/gpu-tests-fitted.log"
run_points fitted_rule_probe 330 $(seq -s, 0 34)
echo "done after $(elapsed) s"
