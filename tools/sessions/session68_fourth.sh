#!/usr/bin/env bash
# Session 68 call 4 (~330 s): tools/fitted_past_1024_probe.py points 56..67, the hybrid on
# fitted widths past 1024 tokens (FITTED_HYBRID) against whole fitted tiles and cuBLAS; then
# tools/fused_fitted_probe.py points 20..23, the fused op past 2048 tokens on its route
# (FITTED_MAX_M 2048) against whole fitted tiles and the unfused pair.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session68_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_past_1024_probe 170 $(seq 56 67)
warm_points fused_fitted_probe 170 20 21 22 23
report_warm
run_points fitted_past_1024_probe 230 $(seq -s, 56 67)
run_points fused_fitted_probe 130 20,21,22,23
echo "done after $(elapsed) s"
