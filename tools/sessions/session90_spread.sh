#!/usr/bin/env bash
# (Ran in session 90; its switch is gone since: notes/staging-early-spread.patch re-adds it.)
# Session 90: the token staging spread over the CTA's threads (NVFP4GemmSmallM.STAGING_SPREAD,
# a probe switch) - its GPU tests (the same bits as the default, small-M and balanced, plain
# and fused), memcheck / racecheck on the balanced launches with it, and
# tools/staging_cost_probe.py (default, nostage, early, spread) from DRAM and from L2. Either
# card (~200 s on an H100). If "spread" wins: the switch on, then the H200 suites.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_spread.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 0 1 2
gpu_tests 300 /tmp/logs/t-spread.log tests/test_staging_spread.py &
report_warm_and_tests
BALANCED_SPREAD=1 CUTE_KERNELS_CACHE_DIR=/tmp/kc-spread sanitize_script sanitize_balanced 200
run_points staging_cost_probe 90 0 1 2
PROBE_L2=1 run_points staging_cost_probe 90 0 1 2
echo "done after $(elapsed) s"
