#!/usr/bin/env bash
# Session 59 call 2 (~450 s): W4A16 K pieces of 256-token tiles on (four at 1024x7168 M = 1024,
# three for the 128-token stream-K at 1280) and narrow weights (<= 1024 rows) decoded in place
# from 512 tokens (k_order.W4A16_IN_PLACE_NARROW_MIN_M): every GPU test, memcheck / racecheck
# (tools/sanitize_w4a16_pieces.py), tools/stream_k_stretch_probe.py at M = 640 / 768 / 896
# (the 128-token stream-K now in place, against "_copy" and K pieces) and the public route at
# M = 1024 / 1280, then the swiglu suite's 1024x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session59_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_stretch_probe 300 7 8 9
warm_suite swiglu 2
all_gpu_tests 14 360
report_warm
sanitize_script sanitize_w4a16_pieces
run_points stream_k_stretch_probe 250 7 8 9 4 1
run_suite swiglu 100 2
suite_lines
grep -h "W4A16 permuted" "$OUT"/bench-swiglu*.log | cut -c1-150
echo "done after $(elapsed) s"
