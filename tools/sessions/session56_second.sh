#!/usr/bin/env bash
# Session 56 (~450 s): the routes of session 56 (past 64 tokens the scattered K pieces where
# plain_plan has two or four, not the 64-row tiles; two pieces as cluster pairs, the fused
# pair now on 8 stages): their GPU tests, the sanitizers, tools/pair_route_probe.py (routed /
# two scattered pieces / the 64-row tiles, 4096x7168 M = 65..256, 1024x7168 M = 960, 1024),
# tools/pieces_fixup_probe.py at its two-piece points (the fused pair on 8 stages), then the
# swiglu suite's 1024x7168 and 4096x7168 and the nvfp4_gemm suite's 4096x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session56_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pair_route_probe 300 0 1 2 3 4 5
warm_points pieces_fixup_probe 300 1 4
warm_suite swiglu 2 3
warm_suite nvfp4_gemm 5
sanitize_both
gpu_tests 300 /tmp/logs/t-routes.log tests/test_pieces_routes.py tests/test_pdl_trigger.py &
gpu_tests 300 /tmp/logs/t-pairs.log tests/test_scatter_pieces.py -k pair &
gpu_tests 300 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "half_group or pieces" &
report_warm_and_tests
cat "$OUT"/memcheck.txt "$OUT"/racecheck.txt 2>/dev/null
run_points pair_route_probe 200 0 1 2 3 4 5
run_points pieces_fixup_probe 100 1 4
run_suite swiglu 100 2 3
run_suite nvfp4_gemm 150 5
suite_lines "64|65|128|192|256|512|1024"
echo "done after $(elapsed) s"
