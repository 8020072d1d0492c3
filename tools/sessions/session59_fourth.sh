#!/usr/bin/env bash
# Session 59 call 4 (~120 s): W4A16 token tails on 1024x7168 read in place, the TMA filling the
# last token tile (tools/w4a16_tail_probe.py points 0-3: M = 700 / 1100 / 2500 / 1000), against
# the reordering copy into whole tiles the route takes.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session59_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_tail_probe 200 0 1 2 3
report_warm
run_points w4a16_tail_probe 200 0 1 2 3
echo "done after $(elapsed) s"
