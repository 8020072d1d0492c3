#!/usr/bin/env bash
# Session 90: the GPU tests of the balanced one-token launches with the under-staging rule
# (bf16 tokens, walks of >= 5 steps: NVFP4GemmOneTokenBalanced.UNDER_STAGING_MIN_WALK) and of
# the switches; then tools/staging_cost_probe.py point 0 (5120x17408) once more. Either card
# (~120 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_rule.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 0
gpu_tests 300 /tmp/logs/t-next.log tests/test_next_step_staging.py &
gpu_tests 300 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
report_warm_and_tests
run_points staging_cost_probe 90 0
echo "done after $(elapsed) s"
