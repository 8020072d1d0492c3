#!/usr/bin/env bash
# Session 67 call 2 (~500 s): every GPU test with the fused op's fitted tiles in steps of 16
# (FUSED_FITTED_STEP 16), warming beside; then tools/fused_vs_cublas_sweep.py at issue 6's
# points the step moves or that stayed behind: 9216x7168 M = 600 (point 7, behind the pair by
# 1% in session 66), 1024x7168 M = 600 (13, behind cuBLAS + silu), 4096x7168 M = 260 (30, W4A16
# behind cuBLAS + silu), 36864x7168 / 34816x5120 M = 200 (33, 34).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session67_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_vs_cublas_sweep 300 7,13 30,33 34
all_gpu_tests 16 420
report_warm
run_points fused_vs_cublas_sweep 150 7,13,30,33,34
echo "done after $(elapsed) s"
