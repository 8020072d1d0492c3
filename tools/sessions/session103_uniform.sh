#!/usr/bin/env bash
# Session 103 (either card, ~250 s): ``NVFP4GemmLargeM.UNIFORM_K_GROUP`` (on by default) now
# also makes ``_holds_piece`` warp-uniform, so wg_k_split's launches in four K pieces (the
# stream-K fix-up: 2048x7168 at 17..128 tokens, 1024x7168, the fused op's half groups at
# 2I = 2048) keep their main loop's wgmma descriptors in uniform registers (SASS: 11 of 20
# HGMMAs R2UR-fed -> 0). After the switch's GPU tests (the same bits, four pieces among them),
# tools/prefetch_depth_probe.py times the form without it ("thread_group") against the public
# route: session 102's six points (3 4 5 8 18 19) and the four-piece ones (35..38).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session103_uniform.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=thread_group
gpu_tests 240 /tmp/logs/t-uniform.log tests/test_wg_k_split.py -k uniform &
warm_points prefetch_depth_probe 200 35 36 37 38 3 4 5 8 18 19
report_warm_and_tests
run_points prefetch_depth_probe 200 35 36 37 38 3 4 5 8 18 19
echo "uniform probe done after $(elapsed) s"
