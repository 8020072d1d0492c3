#!/usr/bin/env bash
# Session 86's regression sweep of the fused op (~450 s, an H200 only: on an H100 it stops at
# once): the swiglu suite at 36864x7168, 4096x7168 and 34816x5120 (their H200 rows are
# sessions 46-60's or older, before the fused rules since), the targets report, and every row that
# moved more than 4% against tools/h200_latest_rows.json.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session86_sweep_fused.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite swiglu 0 3 4
report_warm
SUITE_SECONDS=150 suite_targets swiglu "1|8|16|64|256|1024|4096|16384" 0 3 4
echo "done after $(elapsed) s"
