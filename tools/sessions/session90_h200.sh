#!/usr/bin/env bash
# Session 90's H200 call (an H200 only: on an H100 it stops at once; ~400 s): everything landed
# since the last H200 suites, on the rows closest to their bars -
# - the swiglu suite at 9216x7168 (issue 6's M = 1 row, 67.0% in session 88, before the fused
#   epilogue's new tail and the out_scale table) and 1024x7168 (W4A16 M = 1024 at 0.99x
#   cuBLAS + silu; the table moved its one-token rows on the H100);
# - tools/lane_columns_probe.py points 0 and 2: lane columns on the public 9216x7168 M = 1
#   launches, plain and fused (issue 5 asks ~2% at the plain one);
# - the nvfp4_gemm suite at 9216x7168 and 5120x17408 (W4A16 M = 1 74.4%, M = 8 59.4%: under a
#   point from their bars), the targets and the rows that moved > 4%.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite swiglu 1 2
warm_suite nvfp4_gemm 4 1
warm_points lane_columns_probe 200 0 2
report_warm
run_suite swiglu 110 1 2
grep -h "permuted M=1 \|M=1024" "$OUT"/bench-swiglu*.log | cut -c1-175
run_points lane_columns_probe 90 0 2
suite_targets nvfp4_gemm "1|4|8|16" 4 1
echo "done after $(elapsed) s"
