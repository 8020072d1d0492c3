#!/usr/bin/env bash
# Session 89's H200 call (an H200 only: on an H100 it stops at once; ~250 s):
# - the swiglu suite at 9216x7168 (SUITE_SECONDS, 120 unless set) with the fused one-token
#   epilogue's new tail (H100: 16.35 -> 15.59 us at M = 1; issue 6's row, 67.0% in session 88),
#   the targets and the rows that moved > 4%;
# - tools/lane_columns_probe.py point 0: lane columns on the public 9216x7168 M = 1 launch (the
#   balanced (8, 3) since session 78; issue 5 asks 75%, 73.3% in session 88, ~2%); the H100
#   cannot tell from DRAM (even there, call 6); from L2 it gained 1.4% (call 8);
# - alongside the warm-up, the balanced fused GPU tests (their helper was refactored).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_suite swiglu 1
warm_points lane_columns_probe 200 0
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_balanced.py -k fused &
report_warm_and_tests
SUITE_SECONDS=${SUITE_SECONDS:-120} suite_targets swiglu "1|4|8|16" 1
echo "suite done after $(elapsed) s"
run_points lane_columns_probe 60 0
echo "done after $(elapsed) s"
