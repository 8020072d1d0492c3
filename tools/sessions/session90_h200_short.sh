#!/usr/bin/env bash
# Session 90's short H200 call (an H200 only: on an H100 it stops at once; ~250 s): the
# nvfp4_gemm suite at 5120x17408 (W4A16 M = 1 74.4% in session 88, 75% asked: the under-staging
# rule's point, 19.84 -> 19.26 us on an H100) and the swiglu suite at 9216x7168 (issue 6's M = 1
# row, 67.0%, before the epilogue's new tail), the targets and the rows that moved > 4%.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_h200_short.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite swiglu 1
warm_suite nvfp4_gemm 1
report_warm
run_suite swiglu 100 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
suite_targets nvfp4_gemm "1|4|8|16" 1
echo "done after $(elapsed) s"
