#!/usr/bin/env bash
# Session 43's eighth call (~70 s): tools/fixed_part_probe.py's "switches" point: 9216x7168
# M = 1's fixed part (main loop capped at 0) on session 43's launch (PDL at the CTA start,
# held to the wave) and without it, without the staged scale table; the whole loop without
# the table.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_eighth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fixed_part_probe 120 5
report_warm
run_points fixed_part_probe 100 5
echo "done after $(elapsed) s"
