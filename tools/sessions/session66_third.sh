#!/usr/bin/env bash
# Session 66 call 3 (~330 s): tools/fitted_tiles_probe.py points 14..26: fitted tiles beside the
# rule's range (one tile of 160..224 tokens at 160..200 tokens; 1100 tokens in five of 224),
# 23..26: 208- / 240-token tiles (steps of 16); each checked against fp64 first; lead c of the
# item with 43 zeros.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session66_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_tiles_probe 300 14,15,16 17,18,19 20,21,22 23,24,25,26
report_warm
run_points fitted_tiles_probe 330 $(seq -s, 14 26)
echo "done after $(elapsed) s"
