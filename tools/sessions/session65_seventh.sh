#!/usr/bin/env bash
# Session 65 call 7 (~120 s, the budget's last minutes): the fused kernel on fitted tiles against
# the reference (tests/test_fitted_tiles.py), then tools/fused_fitted_probe.py points 0..3.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_seventh.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_fitted_probe 150 0,1 2,3
gpu_tests 150 /tmp/logs/t-fused-fitted.log tests/test_fitted_tiles.py -k fused &
report_warm
tail -2 /tmp/logs/t-fused-fitted.log; cp /tmp/logs/t-fused-fitted.log "$OUT/gpu-tests-fused.log"
run_points fused_fitted_probe 150 0,1,2,3
echo "done after $(elapsed) s"
