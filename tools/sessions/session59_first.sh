#!/usr/bin/env bash
# Session 59 call 1 (~320 s, prepared in session 58): W4A16 in place on four K pieces of
# 256-token tiles (``W4A16_PIECES``, built off after session 58's last call): its GPU tests
# (tests/test_w4a16_stream_k.py, the forced launch and the route with the switch on),
# memcheck / racecheck (tools/sanitize_w4a16_pieces.py), tools/stream_k_stretch_probe.py points
# 4 / 6 (1024x7168 M = 1024: route / "_pieces256x4", measured 31.30 / 29.83 in session 58;
# M = 512: 256-token tiles in four / eight K pieces, in place from 256 tokens, "ip"; point 1,
# M = 1280: three pieces of 256-token tiles on 120 CTAs, "_pieces256x3", against the route's
# 42.6, cuBLAS + silu 33.4). If all
# pass: switch W4A16_PIECES on (widened to M = 512 if "_pieces256x8ip" wins there) and rerun
# the swiglu suite's 1024x7168 (W4A16 M = 512 / 1024: 1.00x / 0.94x).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session59_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_stretch_probe 250 1 4 6
all_gpu_tests 4 240 tests/test_w4a16_stream_k.py tests/test_swiglu_quant_swapped.py
report_warm
sanitize_script sanitize_w4a16_pieces
run_points stream_k_stretch_probe 250 4 6 1
echo "done after $(elapsed) s"
