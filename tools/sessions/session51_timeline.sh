#!/usr/bin/env bash
# Session 51, fifth call (branch decode-ahead, ~150 s): ``decode_ahead``'s timeline
# (``tools/decode_ahead_timeline.py``): per chunk, when the decoders release it and how long
# the TMA producers wait for it, at 1024x7168 M = 2048 / 4096 and 4096x7168 M = 4096; and the
# decode-ahead tests once more (the timeline argument changed the kernel's signature).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_timeline.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 240 /tmp/logs/t-da.log tests/test_decode_ahead.py &
timeout 300 python tools/decode_ahead_timeline.py 2>&1 | tee "$OUT/timeline.log"
report_warm_and_tests
echo "done after $(elapsed) s"
