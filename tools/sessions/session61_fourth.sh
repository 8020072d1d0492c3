#!/usr/bin/env bash
# Session 61 call 4 (~100 s): tools/stream_k_lanes_probe.py points 12 and 14, 4096x7168's
# 256-token stream-K (M = 2100 / 3500) in lanes of 32 row tiles against plain
# ranges, both activations.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session61_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_lanes_probe 150 12 14
report_warm
run_points stream_k_lanes_probe 90 12 14
echo "done after $(elapsed) s"
