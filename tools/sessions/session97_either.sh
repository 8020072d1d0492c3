#!/usr/bin/env bash
# One call for whichever card comes (device starts are this project's scarce resource):
# on an H200, session97_near.sh's rows (the 9216x7168 M = 1 row with the row-group route,
# then the near-miss rows of sessions 86-88), then session97_timelines.sh's stamps tests and
# timelines; on an H100, the timelines alone. All warmed side by side first. ~450 s on a
# cold H200 (timeout 580 keeps the rows if the timelines run long), ~250 s on an H100.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session97_either.sh
source "$(dirname "$0")/../device_common.sh"
if on_h200; then
  warm_at_ms 1 nvfp4_gemm 4
  near_miss_warm
fi
timelines_warm
report_warm_and_tests
if on_h200; then
  near_rows_run
fi
timelines_run 120
echo "done after $(elapsed) s"
