#!/usr/bin/env bash
# Session 65 call 3 (~300 s): tools/fitted_tiles_probe.py (new): 160- / 192- / 224-token tiles
# against the plan and cuBLAS at issue 5's short points, each width checked against fp64 first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_tiles_probe 300 0,1,2,3,4 5,6,7,8,9 10,11,12,13
report_warm
run_points fitted_tiles_probe 400 $(seq -s, 0 13)
echo "done after $(elapsed) s"
