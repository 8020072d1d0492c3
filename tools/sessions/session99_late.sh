#!/usr/bin/env bash
# Session 99, on whichever card comes: the late pieces (``NVFP4GemmLargeM.LATE_PIECES``,
# ``stream_k``'s late pieces, each round reloading every word still out) against the default
# asynchronous fix-up: their GPU tests, tools/late_pieces_probe.py at issue 5's eight M <= 64
# points, the 16-token stream-K timeline with its ``late`` form, the sanitizers on the late
# launches, then the quantizer's timeline. All warmed side by side first. ~450 s.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session99_late.sh
source "$(dirname "$0")/../device_common.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
warm_points late_pieces_probe 240 0 1 2 3 4 5 6 7
gpu_tests 300 /tmp/logs/t-late.log tests/test_async_fixup.py tests/test_stream_k_stamps.py &
warm_points stream_k_timeline 240 0 1 2
warm_points quant_timeline 200 0 1 2 3
report_warm_and_tests
run_points late_pieces_probe 150 0 1 2 3 4 5 6 7
run_points stream_k_timeline 100 0 1
sanitize_script sanitize_late_pieces 120
run_points quant_timeline 100 0 1 2 3
echo "done after $(elapsed) s"
