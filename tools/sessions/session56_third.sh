#!/usr/bin/env bash
# Session 56 (~250 s, the budget's last): with the fused "pieces" launches' PDL trigger and
# spread pass on (PIECES_PDL) and the pairs' up to 1024 tokens: the GPU tests of the routes
# and the fused op's pieces / route tests, then tools/pair_route_probe.py at the fused op's
# other "pieces" points (1024x7168 M = 100..512, the "_nopdl" form beside) and M = 2048 (whole
# tiles, the "_pdl2k" form: WHOLE_PDL).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session56_third.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="6 7 8 9 10"
warm_points pair_route_probe 200 $POINTS
gpu_tests 200 /tmp/logs/t-routes.log tests/test_pieces_routes.py &
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "pieces or route" &
report_warm_and_tests
run_points pair_route_probe 100 $POINTS
echo "done after $(elapsed) s"
