#!/usr/bin/env bash
# Session 57 (~560 s, prepared in session 56): every GPU test on session 56's routes (its
# calls ran the route tests only), then the suites with the fused pieces' PDL on: the swiglu
# suite's 1024x7168 (issue 6: M = 1024 at 1.03x of cuBLAS + silu in session 56's probe, 0.99x
# in its suite before the PDL; M = 2048 0.99-1.00x) and 4096x7168, the nvfp4_gemm suite's
# 4096x7168; tools/pair_route_probe.py at 1024x7168 M = 100 / 256 (the fused pieces' PDL on
# 64-token tiles: the "_pdl64" form).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session57_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2 3
warm_suite nvfp4_gemm 5
warm_points pair_route_probe 250 6 8
all_gpu_tests 14 360
report_warm
run_suite swiglu 100 2 3
run_suite nvfp4_gemm 150 5
suite_lines
run_points pair_route_probe 60 6 8
echo "done after $(elapsed) s"
