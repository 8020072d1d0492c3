#!/usr/bin/env bash
# Session 51, sixth call (branch decode-ahead, ~200 s): call 5's timeline had the decoders
# releasing a 512-K chunk every 4.1 / 6.6 us at 1024x7168 M = 2048 / 4096 (~3 us of it fixed
# per chunk: fences, barrier, release) and the producers waiting on every chunk. Chunks of
# 1024 and 2048 K ("ahead1k" / "ahead2k") beside 512, graph us (``decode_ahead_probe.py``
# points 0, 1, 3); the decode-ahead tests first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_chunks.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 240 /tmp/logs/t-da.log tests/test_decode_ahead.py &
warm_points decode_ahead_probe 240 0 1 3
report_warm_and_tests
run_points decode_ahead_probe 240 0 1 3
echo "done after $(elapsed) s"
