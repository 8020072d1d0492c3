#!/usr/bin/env bash
# Session 87's H200 sweep (~450 s, an H200 only: on an H100 it stops at once). The short-K fix
# timed on an H100 in call 6 (7168x2048 M = 1 public 3.85 us against (8, 3) 8.17); here the
# nvfp4_gemm suite at 7168x2048 (M = 1 ran 7.53 / 7.60 us in session 86), 36864x7168, 34816x5120
# and 4096x7168 (their H200 rows are sessions 46-57's), and the swiglu suite at 9216x7168 (issue
# 6's open M = 1 row is session 76's, before the fused (8, 2) launch); the targets and every row
# that moved > 4% against tools/h200_latest_rows.json.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite nvfp4_gemm 6 2 3 5
warm_suite swiglu 1
report_warm
run_suite swiglu 120 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 6 2 3 5
echo "done after $(elapsed) s"
