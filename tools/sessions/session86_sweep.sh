#!/usr/bin/env bash
# Session 86's regression sweep (~400 s, an H200 only: on an H100 it stops at once): the
# nvfp4_gemm suite at 7168x2048 (the short-K fix: M = 1 ran 7.53 / 7.60 us in call 10, 3.8
# expected now), 36864x7168, 34816x5120 and 4096x7168 (their H200 rows are sessions 46-57's,
# older than the rules of sessions 60-86), the targets report, and every row that moved more
# than 4% against tools/h200_latest_rows.json. session86_sweep_fused.sh does the swiglu suite's.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session86_sweep.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite nvfp4_gemm 6 2 3 5
report_warm
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 6 2 3 5
echo "done after $(elapsed) s"
