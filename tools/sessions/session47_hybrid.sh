#!/usr/bin/env bash
# Session 47's fourth call (~200 s, slimmed to the device time left): ``act_decode`` with the
# decode shared between the consumers and warps 1..3 of the producer warpgroup
# (``act_warp_rows``). Call 1: the decode warps alone lost 1.8-1.9x to the kernel on the
# pass's activations; call 2: the consumers alone 1.39x / 1.40x (1024x7168 M = 4096 / 16384,
# fused 106.5 / 397.5 against 76.6 / 283.0 us). The GPU tests with the decode warps (the same
# bits as on the pass), memcheck + racecheck on tools/sanitize_act_decode.py, then
# tools/act_decode_probe.py on the fused kernel at 1024x7168 M = 4096 / 16384.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session47_hybrid.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 170 /tmp/logs/t-decode.log tests/test_act_decode.py &
export ACT_DECODE_PROBE_PLAIN=0
warm_points act_decode_probe 150 0 1
sanitize_script sanitize_act_decode
report_warm
test_summary
timeout 80 python tools/act_decode_probe.py 2>&1 | tee "$OUT/act_decode_probe.log"
echo "done after $(elapsed) s"
