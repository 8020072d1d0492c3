#!/usr/bin/env bash
# Session 60 call 5 (~110 s, what the budget leaves): W4A16 1024x7168 M = 5000 took 150 us on
# the 256-token stream-K (call 3) where session 57 had 104 at 4608: tools/w4a16_tail_probe.py
# points 25 / 18 / 26 (M = 4608 / 5000 / 5120), every form, to see whether the step is the
# tail's or the size's.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session60_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_tail_probe 100 25 18 26
report_warm
run_points w4a16_tail_probe 60 25 18 26
echo "done after $(elapsed) s"
