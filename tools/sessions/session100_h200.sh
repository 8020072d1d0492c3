#!/usr/bin/env bash
# Session 100, an H200 only (on an H100 it stops at once): session97_near.sh's rows (the
# 9216x7168 M = 1 row with the row-group route, the near misses of sessions 86-88), then
# ``NVFP4GemmLargeM.EARLY_RELEASE`` at issue 5's 16- and 8-token points, which the H100 found
# even (session 81) and which aims at the H200's consumer-bound launches. All warmed side by
# side first. ~300 s on a cold H200: the timeout cuts the probe first.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session100_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_at_ms 1 nvfp4_gemm 4
near_miss_warm
warm_points early_release_probe 240 0 1 2 3
report_warm
near_rows_run
run_points early_release_probe 120 0 1 2 3
echo "done after $(elapsed) s"
