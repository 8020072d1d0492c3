#!/usr/bin/env bash
# Session 51, second call (~300 s): the fused kernel decoding its own activations
# (``cute_kernels.decode_ahead``): its GPU tests (equal bits with the same launch on the pass)
# and the narrow rule's chain test, memcheck / racecheck, then ``tools/decode_ahead_probe.py``
# (1024x7168 M = 2048 / 4096 / 16384, 4096x7168 M = 4096: the public route against it, cuBLAS
# + silu alongside).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_decode_ahead.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 240 /tmp/logs/t-da.log tests/test_decode_ahead.py tests/test_pdl_trigger.py &
warm_points decode_ahead_probe 240 0 1 2 3
report_warm_and_tests
sanitize_script sanitize_decode_ahead
run_points decode_ahead_probe 200 0 1 2 3
echo "done after $(elapsed) s"
