#!/usr/bin/env bash
# Session 96: the nvfp4_gemm suite's 9216x7168 row at M = 1 on an H200 (an H200 only: on an
# H100 it stops at once; ~90 s). Session 94's row-group route (``plain_row_group_launch``,
# (18, 1, 3), H200 probe 12.00 -> 11.78 us) is unmeasured in the suite; the row read 73.7%
# of the copy before it (issue 5 asks 75%). The W4A16 row (73.2%) is in the same run.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session96_m1_row.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_at_ms 1 nvfp4_gemm 4
report_warm
export CUTE_KERNELS_BENCH_MS=1
suite_targets nvfp4_gemm 1 4
echo "done after $(elapsed) s"
