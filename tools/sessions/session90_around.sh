#!/usr/bin/env bash
# Session 90: the under-staging loads kept ahead of the second step's (_stage_around: no block's
# loads in a branch, so ptxas cannot sink them behind it, as it did on NVFP4 tokens) - the GPU
# tests of the balanced launches and the switches, memcheck / racecheck with the switch forced
# on, and tools/staging_cost_probe.py points 0..2 from DRAM and from L2. Either card (~150 s on
# an H100). If "under" now wins on NVFP4 tokens too: the rule there, then the H200 suites.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_around.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 0 1 2
gpu_tests 300 /tmp/logs/t-next.log tests/test_next_step_staging.py &
gpu_tests 300 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
report_warm_and_tests
BALANCED_UNDER=1 CUTE_KERNELS_CACHE_DIR=/tmp/kc-under sanitize_script sanitize_balanced 200
run_points staging_cost_probe 90 0 1 2
PROBE_L2=1 run_points staging_cost_probe 90 0 1
echo "done after $(elapsed) s"
