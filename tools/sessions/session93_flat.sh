#!/usr/bin/env bash
# Session 93's branch-free staging (NVFP4GemmSmallM.FLAT_STAGING, probe-only) on either card
# (~250 s): the default staging's second slot waits behind the first slot's decode (its loads
# sunk into the store's branch), a second round trip to L2 for the token; "flat" issues both
# slots' loads together and moves no weight step. tools/staging_cost_probe.py points 1, 2, 0
# (plain 9216x7168, fused 9216x7168, plain 5120x17408 at M = 1) from DRAM, then from L2
# (PROBE_L2=1: on an H100 the stand-in for the H200's one-token bound, where "under" loses
# 0.6 us); the GPU bit tests of the forced forms first, beside the warm-ups; last memcheck and
# racecheck on the balanced launches with BALANCED_FLAT=1 (a kernel cache of their own).
# If "flat" wins both ways: route it (a rule like UNDER_STAGING_MIN_WALK's, its rule tests).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session93_flat.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 240 1 2 0
gpu_tests 300 /tmp/logs/t-flat.log tests/test_next_step_staging.py -k FLAT &
report_warm_and_tests
run_points staging_cost_probe 90 1 2 0
echo "from L2 after $(elapsed) s"
PROBE_L2=1 run_points staging_cost_probe 90 1 2 0
echo "sanitizers after $(elapsed) s"
BALANCED_FLAT=1 CUTE_KERNELS_CACHE_DIR=/tmp/kc-flat sanitize_script sanitize_balanced 200
echo "done after $(elapsed) s"
