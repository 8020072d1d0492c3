#!/usr/bin/env bash
# Session 87's smallest H200 call (~200 s, an H200 only: on an H100 it stops at once): the
# swiglu suite at 9216x7168 (issue 6's open M = 1 row is session 76's) and the nvfp4_gemm
# suite at 7168x2048 (the short-K fix), each cut short, then the targets and the moved rows.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_tiny.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite swiglu 1
warm_suite nvfp4_gemm 6
report_warm
run_suite swiglu 90 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
SUITE_SECONDS=70 suite_targets nvfp4_gemm "1|256" 6
echo "done after $(elapsed) s"
