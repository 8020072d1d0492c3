#!/usr/bin/env bash
# Session 52 (~300 s): W4A16 on permuted words decoded in place (KOrder.PERMUTED_IDENTITY):
# the permuted-word and k-order GPU tests, memcheck / racecheck on the in-place launches,
# then tools/w4a16_in_place_probe.py at 18 points (the copy route, in place, W4A4, cuBLAS).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session52_in_place.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 280 /tmp/logs/t-permuted.log tests/test_permuted_fp4.py tests/test_k_order.py &
POINTS=$(seq -s ' ' 0 17)
warm_points w4a16_in_place_probe 240 $POINTS
report_warm_and_tests
sanitize_script sanitize_in_place
run_points w4a16_in_place_probe 300 $POINTS
echo "done after $(elapsed) s"
