#!/usr/bin/env bash
# Session 87's H200 suites (an H200 only: on an H100 it stops at once): the swiglu suite at
# 9216x7168 (issue 6's open M = 1 row is session 76's) and the nvfp4_gemm suite at the shape
# indices given (default 6, 7168x2048: the short-K fix, M = 1 ran 7.53 / 7.60 us in session 86,
# 3.85 public on the H100 in call 6), the targets and the rows that moved > 4%.
# - `session87_lean.sh` (~230 s);
# - `SUITE_SECONDS=70 session87_lean.sh` (~200 s: each suite cut at 70 s, for a short budget);
# - `session87_lean.sh 6 2 3 5` (~450 s: also 36864x7168, 34816x5120 and 4096x7168, whose H200
#   rows are sessions 46-57's).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_lean.sh [INDEX...]
source "$(dirname "$0")/../device_common.sh"
only_on_h200
shapes=("${@:-6}")
warm_suite nvfp4_gemm "${shapes[@]}"
warm_suite swiglu 1
report_warm
run_suite swiglu "${SUITE_SECONDS:-120}" 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" "${shapes[@]}"
echo "done after $(elapsed) s"
