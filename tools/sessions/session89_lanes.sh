#!/usr/bin/env bash
# Session 89: lane columns on today's balanced one-token launches (9216x7168 (8, 3), 5120x17408
# (12, 2), the fused 9216x7168 (8, 2): the public routes since sessions 73-78; lane columns were
# last timed on the unbalanced 9216x7168 launch, +0.9%): tools/lane_columns_probe.py points 0..2,
# "public" against "lanes" (and the (4, 4) / (8, 2) balanced forms it lists). Either card
# (~80 s on an H100); issue 5's 9216x7168 M = 1 needs ~2% on the H200.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_lanes.sh
source "$(dirname "$0")/../device_common.sh"
warm_points lane_columns_probe 240 0 1 2
report_warm
run_points lane_columns_probe 300 0 1 2
echo "done after $(elapsed) s"
