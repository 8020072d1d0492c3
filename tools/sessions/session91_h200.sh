#!/usr/bin/env bash
# The next H200 call (an H200 only: on an H100 it stops at once; ~380 s), after session 91:
# - tools/staging_cost_probe.py point 1: the second walk step under the token staging
#   (NEXT_STEP_UNDER_STAGING) at 9216x7168, NVFP4 and bf16 tokens. On the H100 it won from
#   DRAM (14.42 -> 13.48 us) and lost from L2 (11.02 -> 11.63): the H200 decides whether
#   UNDER_STAGING_MIN_WALK comes down to 3 (the fused launch, two row groups of 7 steps, takes
#   it since session 91);
# - the swiglu suite at 9216x7168 (issue 6's M = 1 row, 67.0% in session 88, before the
#   epilogue's new tail, table and the under-staging), the nvfp4_gemm suites at 5120x17408 (the
#   under-staging rule: H100 19.21 -> 18.07 us at M = 1; W4A16 M = 1 74.4%, 75% asked) and
#   9216x7168;
# - tools/lane_columns_probe.py points 0 and 2 (issue 5 asks ~2% at 9216x7168 M = 1);
# the targets and the rows that moved > 4%. (``session91_h200_short.sh``: the suites first,
# for a short budget.)
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session91_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_points staging_cost_probe 200 1
warm_points lane_columns_probe 200 0 2
warm_suite swiglu 1
warm_suite nvfp4_gemm 1 4
report_warm
run_points staging_cost_probe 60 1
run_suite swiglu 100 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
suite_targets nvfp4_gemm "1|4|8|16" 1 4
run_points lane_columns_probe 80 0 2
echo "done after $(elapsed) s"
