#!/usr/bin/env bash
# Session 63 call 2 (~250 s): tools/lane_bands_probe.py: stream-K in lanes of bands of row
# tiles (built in session 62) on the issue 5 shapes wider than 32 row tiles, against the plan,
# plain ranges and cuBLAS. Where a lane count wins, write the rule (``stream_k_lanes`` for
# more than ``STREAM_K_LANES_MAX_ROW_TILES`` row tiles).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session63_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points lane_bands_probe 400 0,1 2,3,4 5,6 7,8 9
report_warm
run_points lane_bands_probe 250 $(seq -s, 0 9)
echo "done after $(elapsed) s"
