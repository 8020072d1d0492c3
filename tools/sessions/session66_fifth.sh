#!/usr/bin/env bash
# Session 66 call 5 (~430 s): every GPU test on the session's rules (fitted tiles in steps of 16
# from 129 tokens, the fused kernel's from 129, FUSED_FITTED_W4A16, FUSED_PART_WAVE_LANES),
# warming beside; then tools/fused_vs_cublas_sweep.py at 4096x7168 M = 300 (point 18) and its
# session 66 points 30..35 (the fused op against both pairs and cuBLAS + silu), and
# tools/fitted_steps_probe.py point 7 (7168x18432 M = 400, the 144-token tiles' new cost).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session66_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_vs_cublas_sweep 300 18,30,31 32,33 34,35
warm_points fitted_steps_probe 300 7
all_gpu_tests 14 330
report_warm
run_points fused_vs_cublas_sweep 150 18,30,31,32,33,34,35
run_points fitted_steps_probe 30 7
echo "done after $(elapsed) s"
