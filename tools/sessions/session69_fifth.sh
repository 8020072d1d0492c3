#!/usr/bin/env bash
# Session 69 call 5 (~230 s): tools/fused_gaps_probe.py points 25..27, where the unfused pair
# stayed ahead of the fused op after call 4 (9216x7168 M = 1130 and 1380; 7168x18432 M = 2930),
# against other fused launches (whole, hybrid and stream-K widths).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_gaps_probe 150 25 26 27
report_warm
run_points fused_gaps_probe 150 25,26,27
echo "done after $(elapsed) s"
