#!/usr/bin/env bash
# Session 102 (either card, ~200 s): ``NVFP4GemmLargeM.UNIFORM_K_GROUP`` (wg_k_split's K group
# made warp-uniform: its main loop's wgmmas without R2UR) against the public route on the
# points whose public launch is wg_k_split (tools/prefetch_depth_probe.py:
# 4096x7168 M = 16 / 64, 7168x2048 M = 32 / 64, the fused 4096x7168 M = 64 / 256), after the
# switch's GPU tests (the same bits). Since session 103 the switch is on by default, so this
# times the form without it ("thread_group") against the public route.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session102_uniform.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=thread_group
gpu_tests 240 /tmp/logs/t-uniform.log tests/test_wg_k_split.py -k uniform &
warm_points prefetch_depth_probe 200 3 4 5 8 18 19
report_warm_and_tests
run_points prefetch_depth_probe 200 3 4 5 8 18 19
echo "uniform probe done after $(elapsed) s"
