#!/usr/bin/env bash
# Session 103 (either card, ~200 s): ``NVFP4GemmLargeM.UNIFORM_WEIGHT_DESC`` (the bf16 weights'
# wgmma descriptors from a warp-uniform thread: SASS 18 R2UR -> 3). Its GPU tests (the same
# bits as without it, the fp64 reference), then tools/bf16_weights_probe.py with
# CUTE_KERNELS_PROBE_UNIFORM_DESC=1 at fused 1024x7168 W4A16 M = 1024 (the open issue 6 row, on
# the pieces route: "fused_bf16" asks whether the bf16 weights win there), 1536, 2048 and 4096
# (the bf16 weights' public route). Session 103 ran it with the switch on by default and the
# probe's forms then off ("_thread"); the switch is off since.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session103_desc.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_UNIFORM_DESC=1
gpu_tests 200 /tmp/logs/t-desc.log tests/test_bf16_weights.py -k "uniform_weight_desc" &
warm_points bf16_weights_probe 200 3 12 4 5
report_warm_and_tests
run_points bf16_weights_probe 200 3 12 4 5
echo "desc probe done after $(elapsed) s"
