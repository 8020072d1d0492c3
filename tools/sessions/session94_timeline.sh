#!/usr/bin/env bash
# Session 94: where the balanced one-token launch's time goes, from stamps inside the kernel
# (tools/one_token_timeline.py: default, nostage and under forms of 9216x7168 and 5120x17408
# at M = 1 on NVFP4 tokens, the public launches and row groups on one CTA an SM, timed against
# the public launch), from DRAM and then from L2 (PROBE_L2=1: the H100's stand-in for the
# H200); the stamps' and row groups' GPU tests beside the warm-ups. Either card, ~150 s.
# Session 94 call 2 (H100): the staging takes 1.2-1.4 us at 9216x7168 (8, 3), 2.1-2.4 at
# 5120x17408 (12, 2), ~0.1 without it; its time grows with the token bytes all CTAs read
# from the few L2 slices that hold the token.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session94_timeline.sh
source "$(dirname "$0")/../device_common.sh"
warm_points one_token_timeline 240 0 1 2 3 4 5
gpu_tests 240 /tmp/logs/t-stamps.log tests/test_probe_stamps.py \
  tests/test_nvfp4_gemm_balanced.py -k "stamps or row_groups" &
report_warm_and_tests
run_points one_token_timeline 150 0 1 2 3 4 5
echo "from L2 after $(elapsed) s"
PROBE_L2=1 run_points one_token_timeline 150 0 1 2 3 4 5
echo "done after $(elapsed) s"
