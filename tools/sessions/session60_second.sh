#!/usr/bin/env bash
# Session 60 call 2 (~150 s, prepared in session 59): where the W4A16 tail rule
# (k_order.w4a16_tail_in_place: narrow weights, last token tile >= 45% full) could widen:
# tools/w4a16_tail_probe.py points 4-8 (1024x7168 M = 540 / 660 / 1060, last tiles 22% / 16% /
# 28% full; 4096x7168 M = 1100 / 2500) and 1 / 2 for "_tail256" (the 256-token plans on
# tails: 1024x7168 M = 1100 three K pieces, 2500 stream-K).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session60_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_tail_probe 250 4 5 6 7 8 1 2
report_warm
run_points w4a16_tail_probe 250 4 5 6 7 8 1 2
echo "done after $(elapsed) s"
