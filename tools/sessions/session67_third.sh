#!/usr/bin/env bash
# Session 67 call 3 (~420 s): fitted token tiles past 1024 tokens. tools/fitted_past_1024_probe.py
# (24 points: nvfp4_gemm's plan with fitted_launch asked up to 2048 tokens against today's plan
# and cuBLAS), then tools/fused_fitted_probe.py points 15..19 (the fused kernel forced onto the
# fitted widths past 1024 tokens against its route and the pair).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session67_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_past_1024_probe 300 0,1,2,3 4,5,6,7 8,9,10,11 12,13,14,15 16,17,18,19 \
  20,21,22,23
warm_points fused_fitted_probe 300 15,16 17,18 19
report_warm
run_points fitted_past_1024_probe 240 $(seq -s, 0 23)
run_points fused_fitted_probe 120 $(seq -s, 15 19)
echo "done after $(elapsed) s"
