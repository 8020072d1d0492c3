#!/usr/bin/env bash
# Session 100. On an H200 (~260 s cold): session97_near.sh's rows first, then the late pieces
# (warp-uniform spin) at the two points the H100 found even or ahead
# (tools/late_pieces_probe.py: 9216x7168 M = 16, 7168x18432 M = 16). All warmed side by side
# first; the timeout cuts the probe first. On an H100 it stops at once (call 12 ran the
# 16-token timeline with its unstamped form there).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session100_near.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_at_ms 1 nvfp4_gemm 4
near_miss_warm
warm_points late_pieces_probe 200 0 4
report_warm
near_rows_run
run_points late_pieces_probe 80 0 4
echo "done after $(elapsed) s"
