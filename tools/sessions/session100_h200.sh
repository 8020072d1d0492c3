#!/usr/bin/env bash
# Session 100. On an H200 (~200 s cold): session97_near.sh's rows (the 9216x7168 M = 1 row
# with the row-group route, the near misses of sessions 86-88), all warmed side by side
# first. On an H100 it stops at once (calls 8 and 9 ran the 16-token timeline and
# ``tools/l2_consumer_probe.py``'s early release there).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session100_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_at_ms 1 nvfp4_gemm 4
near_miss_warm
report_warm
near_rows_run
echo "done after $(elapsed) s"
