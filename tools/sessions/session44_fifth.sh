#!/usr/bin/env bash
# Session 44's fifth call (~150 s): tools/m1_split_probe.py, one-token K splits of one row tile
# on 5120x17408 (M = 1 / 2) and 7168x18432 against the public configs.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points m1_split_probe 200 0 1 2
report_warm
run_points m1_split_probe 150 0 1 2
echo "done after $(elapsed) s"
