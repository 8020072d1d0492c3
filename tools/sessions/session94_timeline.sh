#!/usr/bin/env bash
# Session 94: where the balanced one-token launch's time goes, from stamps inside the kernel
# (tools/one_token_timeline.py: default, nostage and under forms of 9216x7168 and 5120x17408
# at M = 1 on NVFP4 tokens), from DRAM and then from L2 (PROBE_L2=1: the H100's stand-in for
# the H200); the stamps' GPU tests beside the warm-ups. Either card, ~120 s.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session94_timeline.sh
source "$(dirname "$0")/../device_common.sh"
warm_points one_token_timeline 240 0 1
gpu_tests 240 /tmp/logs/t-stamps.log tests/test_probe_stamps.py &
report_warm_and_tests
run_points one_token_timeline 90 0 1
echo "from L2 after $(elapsed) s"
PROBE_L2=1 run_points one_token_timeline 90 0 1
echo "done after $(elapsed) s"
