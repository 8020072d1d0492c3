#!/usr/bin/env bash
# Session 87's lean H200 call (~230 s, an H200 only: on an H100 it stops at once), for a short
# budget: the nvfp4_gemm suite at 7168x2048 (the short-K fix: M = 1 ran 7.53 / 7.60 us in
# session 86, 3.85 public on the H100 in call 6) and the swiglu suite at 9216x7168 (issue 6's
# open M = 1 row is session 76's), the targets and the rows that moved > 4%.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_lean.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite nvfp4_gemm 6
warm_suite swiglu 1
report_warm
run_suite swiglu 120 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 6
echo "done after $(elapsed) s"
