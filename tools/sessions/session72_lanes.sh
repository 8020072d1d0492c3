#!/usr/bin/env bash
# Lane columns (built in session 71 without a device; nvfp4_gemm_small_m.LANE_COLUMNS, off):
# ~520 s. The probe's warm-ups (seven processes, two points each) beside the lane-column and
# balanced GPU tests in six shards; memcheck and racecheck on tools/sanitize_lane_columns.py;
# then tools/lane_columns_probe.py points 0..13 (M = 1: nvfp4_gemm 9216x7168 and 5120x17408
# with the balanced forms, with and without lane columns, the fused op's 9216x7168 likewise,
# the paired one-row-tile forms, the other one-token shapes; M = 2 on the staged two-token
# shapes).
# It times the balanced forms at issue 5 / 6's open points too, so it can stand in for
# session71_balanced.sh's timing (that call adds the unbound forms, 7168x18432 and 4096x7168).
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session72_lanes.sh
source "$(dirname "$0")/../device_common.sh"
warm_points lane_columns_probe 240 0,1 2,3 4,5 6,7 8,9 10,11 12,13
all_gpu_tests 6 240 tests/test_lane_columns.py tests/test_nvfp4_gemm_balanced.py
report_warm
sanitize_script sanitize_lane_columns 110
run_points lane_columns_probe 190 0,1,2,3,4,5,6,7,8,9,10,11,12,13
echo "done after $(elapsed) s"
