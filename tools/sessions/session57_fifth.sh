#!/usr/bin/env bash
# Session 57 call 5 (~120 s): tools/bf16_weights_probe.py points 19-24, W4A16's in-place
# stream-K launches of 128-token tiles against 256-token ones (1024x7168 M = 1280 .. 6656,
# 4096x7168 M = 1792; call 4: 1024x7168 M = 3072 88.95 -> 71.99 us), and that launch's test.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session57_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points bf16_weights_probe 200 19 20 21 22 23 24
gpu_tests 200 /tmp/logs/t-w4a16.log tests/test_w4a16_stream_k.py &
report_warm_and_tests
run_points bf16_weights_probe 200 19 20 21 22 23 24
echo "done after $(elapsed) s"
