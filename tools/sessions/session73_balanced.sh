#!/usr/bin/env bash
# Session 73's last call (~150 s): the balanced one-token launch at the two CTA counts an SM
# its first measurement (session 73 call 1) did not reach: 7168x18432 (4 K warps, 3 an SM) and
# 4096x7168 (8, 1), with their alternatives (tools/balanced_probe.py points 2 and 3), beside
# memcheck and racecheck on tools/sanitize_balanced.py. Call 1 had 5120x17408 (8, 2) 16.07 us
# against the public 17.64, the fused 9216x7168 (8, 2) 13.13 against 13.78, and 9216x7168
# (4, 4) 12.44 against 12.23.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session73_balanced.sh
source "$(dirname "$0")/../device_common.sh"
warm_points balanced_probe 150 2 3
sanitize_script sanitize_balanced 120
report_warm
run_points balanced_probe 120 2,3
echo "done after $(elapsed) s"
