#!/usr/bin/env bash
# Session 56 (~400 s): with the fused "pieces" launches' PDL trigger and spread pass on
# (PIECES_PDL) and the pairs' up to 1024 tokens: the GPU tests of the routes and the fused op,
# tools/pair_route_probe.py at the fused op's other "pieces" points (1024x7168 M = 64..512) and
# 1024x7168 M = 1024 / 4096x7168 M = 65 again (the "_nopdl" form beside), M = 2048 (whole
# tiles, the "_pdl2k" form: WHOLE_PDL), then the swiglu
# suite's 1024x7168 (issue 6: >= 1x cuBLAS + silu at M >= 256).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session56_third.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="0 5 6 7 8 9 10"
warm_points pair_route_probe 300 $POINTS
warm_suite swiglu 2
gpu_tests 300 /tmp/logs/t-routes.log tests/test_pieces_routes.py tests/test_pdl_trigger.py &
gpu_tests 300 /tmp/logs/t-fused1.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not swapped and not small" &
gpu_tests 300 /tmp/logs/t-fused2.log tests/test_nvfp4_gemm_swiglu_quant.py -k "swapped or small" &
report_warm_and_tests
run_points pair_route_probe 200 $POINTS
run_suite swiglu 100 2
suite_lines
echo "done after $(elapsed) s"
