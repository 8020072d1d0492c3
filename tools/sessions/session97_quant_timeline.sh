#!/usr/bin/env bash
# Where plain nvfp4_quantize's time goes at M = 4096 (issue 4: 74-78% of the H200's copy, 85%
# asked), either card (~120 s; the H200 is the card that counts, an H100 shows the shape):
# the stamps' GPU tests (tests/test_quant_timeline.py: the stamped launch's bits, every warp's
# stamps in order), then tools/quant_timeline.py at plain M = 4096 K = 5120 / 7168, M = 16384
# K = 5120 and fused M = 4096 I = 5120, all warmed side by side first. It prints per point how
# early the CTAs start, the warps' and SMs' end times, the span left idle by SMs done early
# and the warp slots busy: whether the empty SM time is the launch ramp, SMs done early
# (unequal memory service on a static share) or the start before the first item.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session97_quant_timeline.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-timeline.log tests/test_quant_timeline.py &
warm_points quant_timeline 200 0 1 2 3
report_warm_and_tests
run_points quant_timeline 150 0 1 2 3
echo "done after $(elapsed) s"
