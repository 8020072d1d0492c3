#!/usr/bin/env bash
# (Ran in session 90; its switch is gone since: notes/staging-early-spread.patch re-adds it.)
# Session 90: each K warp's second walk step loaded before the token's staging
# (NVFP4GemmOneTokenBalanced.NEXT_STEP_BEFORE_STAGING, a probe switch) - its GPU tests (the same
# bits as the default launch, plain and fused), memcheck / racecheck on the balanced launches
# with it, and tools/staging_cost_probe.py (plain 5120x17408 / 9216x7168 and the fused
# 9216x7168 at M = 1: default, without the staging, early) from DRAM and from L2. Either card
# (~200 s on an H100). If "early" wins from L2: the switch on, then the H200 suites.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_early.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 0 1 2
gpu_tests 300 /tmp/logs/t-early.log tests/test_next_step_before_staging.py &
report_warm_and_tests
BALANCED_EARLY=1 CUTE_KERNELS_CACHE_DIR=/tmp/kc-early sanitize_script sanitize_balanced 200
run_points staging_cost_probe 90 0 1 2
PROBE_L2=1 run_points staging_cost_probe 90 0 1 2
echo "done after $(elapsed) s"
