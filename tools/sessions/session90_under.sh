#!/usr/bin/env bash
# Session 90: each K warp's second walk step loaded between the staging's loads and their
# decode (NVFP4GemmOneTokenBalanced.NEXT_STEP_UNDER_STAGING, a probe switch) - its GPU tests
# (the same bits as the default launch, plain and fused), memcheck / racecheck on the balanced
# launches with it, and tools/staging_cost_probe.py (default, nostage, under) from DRAM and
# from L2. Either card (~200 s on an H100). If "under" wins: the switch on, then the H200 suites.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_under.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 0 1 2
gpu_tests 300 /tmp/logs/t-next.log tests/test_next_step_staging.py &
report_warm_and_tests
BALANCED_UNDER=1 CUTE_KERNELS_CACHE_DIR=/tmp/kc-under sanitize_script sanitize_balanced 200
run_points staging_cost_probe 90 0 1 2
PROBE_L2=1 run_points staging_cost_probe 90 0 1 2
echo "done after $(elapsed) s"
