#!/usr/bin/env bash
# Session 56 (~150 s, the budget's last): the GPU tests of the routes (test_pieces_routes.py:
# the fused pieces' PDL on 128-token tiles, pairs to 1024 tokens) and
# tools/pair_route_probe.py at 1024x7168 M = 512 (four pieces of 128-token tiles, the "_nopdl"
# form beside) and M = 2048 (whole tiles, the "_pdl2k" form: WHOLE_PDL).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session56_third.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="9 10"
warm_points pair_route_probe 150 $POINTS
gpu_tests 150 /tmp/logs/t-routes.log tests/test_pieces_routes.py &
report_warm_and_tests
run_points pair_route_probe 60 $POINTS
echo "done after $(elapsed) s"
