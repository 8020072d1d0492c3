#!/usr/bin/env bash
# Session 66 call 2 (~300 s): tools/fused_vs_cublas_sweep.py at 300 and 600 tokens on issue 6's
# five shapes (points 0,1,6,7,12,13,18,19,24,25) with the fitted tiles; tools/fused_fitted_probe.py
# points 4..7 (36864x7168 M = 800, 34816x5120 / 9216x7168 M = 513, 1024x7168 M = 1100).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session66_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_vs_cublas_sweep 300 0,1,6,7,12 13,18,19,24,25
warm_points fused_fitted_probe 300 4,5 6,7
report_warm
run_points fused_vs_cublas_sweep 200 0,1,6,7,12,13,18,19,24,25
run_points fused_fitted_probe 100 4,5,6,7
echo "done after $(elapsed) s"
