#!/usr/bin/env bash
# Session 59 call 5 (~120 s, what a refused start left of the budget): W4A16 token tails on
# narrow weights read in place (k_order.w4a16_tail_in_place): tests/test_w4a16_stream_k.py
# (the public op on them against the reference, no reordering copy), memcheck / racecheck
# (tools/sanitize_w4a16_pieces.py, 700 / 1100 added), then tools/w4a16_tail_probe.py points
# 0-3 on the public route ("w16" should now read as "_tail").
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session59_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_tail_probe 200 0 1 2 3
all_gpu_tests 6 150 tests/test_w4a16_stream_k.py
report_warm
sanitize_script sanitize_w4a16_pieces
run_points w4a16_tail_probe 200 0 1 2 3
echo "done after $(elapsed) s"
