#!/usr/bin/env bash
# Session 59 call 5 (~200 s): W4A16 token tails on narrow weights read in place
# (k_order.w4a16_tail_in_place): tests/test_w4a16_stream_k.py and the fused route tests,
# memcheck / racecheck (tools/sanitize_w4a16_pieces.py, 700 / 1100 added), then
# tools/w4a16_tail_probe.py points 0-3 on the public route ("w16" should now read as "_tail").
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session59_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_tail_probe 200 0 1 2 3
all_gpu_tests 8 200 tests/test_w4a16_stream_k.py tests/test_k_order.py tests/test_permuted_fp4.py
report_warm
sanitize_script sanitize_w4a16_pieces
run_points w4a16_tail_probe 200 0 1 2 3
echo "done after $(elapsed) s"
