#!/usr/bin/env bash
# Session 61 call 2 (~450 s): stream-K in lanes of row tiles (``STREAM_K_LANES``, new): every
# GPU test (the fused routes on 1024x7168 take lanes at the 128- / 256-token stream-K;
# tests/test_stream_k_lanes.py checks them against the reference), memcheck / racecheck on
# tools/sanitize_stream_k_lanes.py, then tools/stream_k_lanes_probe.py at all 11 points
# (1024x7168 M = 1030..10000, lanes against plain ranges).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session61_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_lanes_probe 300 0 1 2 3 4 5 6 7 8 9 10
all_gpu_tests 14 330
report_warm
sanitize_script sanitize_stream_k_lanes
run_points stream_k_lanes_probe 200 0 1 2 3 4 5 6 7 8 9 10
echo "done after $(elapsed) s"
