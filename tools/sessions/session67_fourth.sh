#!/usr/bin/env bash
# Session 67 call 4 (~300 s): tools/fitted_past_1024_probe.py points 24..39: today's plan (whole
# fitted tiles alone past 1024 tokens, FITTED_MAX_M 2048) against session 66's and cuBLAS.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session67_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_past_1024_probe 200 24,25,26 27,28,29 30,31,32 33,34,35 36,37 38,39
report_warm
run_points fitted_past_1024_probe 230 $(seq -s, 24 39)
echo "done after $(elapsed) s"
