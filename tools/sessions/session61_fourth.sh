#!/usr/bin/env bash
# Session 61 call 4 (~150 s): tools/stream_k_lanes_probe.py points 11-14, 4096x7168's
# 256-token stream-K (M = 1200 / 2100 / 2500 / 3500) in lanes of 32 row tiles against plain
# ranges, both activations.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session61_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_lanes_probe 200 11 12 13 14
report_warm
run_points stream_k_lanes_probe 120 11 12 13 14
echo "done after $(elapsed) s"
