#!/usr/bin/env bash
# Session 68 call 2 (~450 s, prepared in session 67): tools/fitted_past_1024_probe.py points
# 40..55: nvfp4_gemm's fitted tiles past 2048 tokens (FITTED_MAX_M at 4096, whole tiles) against
# today's plan and cuBLAS. Where they win, FITTED_MAX_M = 4096 (tests/test_fitted_tiles.py's
# FITTED_PAST_1024 table takes the measured picks). Then tools/fused_vs_cublas_sweep.py at 1100
# and 1700 tokens on 36864x7168 / 9216x7168 / 4096x7168 / 34816x5120 (points 2, 3, 8, 9, 20,
# 21, 26, 27): the fused op on its fitted tiles past 1024 (NVFP4 and bf16 activations) against
# both pairs and cuBLAS + silu.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session68_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_past_1024_probe 200 40,41,42 43,44,45 46,47,48 49,50,51 52,53 54,55
warm_points fused_vs_cublas_sweep 200 2,3 8,9 20,21 26,27
report_warm
run_points fitted_past_1024_probe 250 $(seq -s, 40 55)
run_points fused_vs_cublas_sweep 150 2,3,8,9,20,21,26,27
echo "done after $(elapsed) s"
