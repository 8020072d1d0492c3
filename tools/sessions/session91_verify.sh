#!/usr/bin/env bash
# Session 91's rules on a GPU (either card, ~200 s on an H100): the GPU tests of the second step
# under the staging (balanced: now the fused launch too; small-M: two row groups, the plain
# 36864x7168 M = 1 route) and of the fused epilogue's tail (the sanitizers ran these paths
# forced on: session 90 BALANCED_UNDER=1, session 91 call 1); then tools/small_m_under_probe.py
# points 0 and 4 (public 36864x7168 M = 1, plain and fused: "public" now takes the rule, so
# public and "under" should read alike, ~53.4 us on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session91_verify.sh
source "$(dirname "$0")/../device_common.sh"
warm_points small_m_under_probe 240 0 4
gpu_tests 400 /tmp/logs/t-staging.log tests/test_next_step_staging.py \
  tests/test_small_m_under_staging.py tests/test_fused_epilogue_tail.py &
gpu_tests 400 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "small_m or permuted or config" &
report_warm_and_tests
run_points small_m_under_probe 150 0 4
echo "done after $(elapsed) s"
