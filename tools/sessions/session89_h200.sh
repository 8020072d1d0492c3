#!/usr/bin/env bash
# Session 89's H200 call (an H200 only: on an H100 it stops at once; ~520 s):
# - tools/lane_columns_probe.py point 0: lane columns on the public 9216x7168 M = 1 launch (the
#   balanced (8, 3) since session 78; issue 5 asks 75%, 73.3% in session 88, ~2%); the H100
#   cannot tell (its one-token GEMM reads at its copy rate: even there, call 6);
# - the nvfp4_gemm suites at 36864x7168, 34816x5120 and 4096x7168 (their H200 rows are sessions
#   46-57's), SUITE_SECONDS each (110 unless set), the targets and the rows that moved > 4%.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_points lane_columns_probe 240 0
warm_suite nvfp4_gemm 2 3 5
report_warm
run_points lane_columns_probe 90 0
echo "probe done after $(elapsed) s"
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 2 3 5
echo "done after $(elapsed) s"
