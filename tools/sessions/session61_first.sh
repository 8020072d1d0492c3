#!/usr/bin/env bash
# Session 61 call 1 (~420 s, prepared in session 60): every GPU test on session 60's W4A16
# tail rule (call 4 ran the fused route tests only: 471), then W4A16 1024x7168 past 4096
# tokens, where M = 5000 took 150 us on the 256-token stream-K (against 104 at 4608 in
# session 57 and 108 for cuBLAS + silu): tools/w4a16_tail_probe.py points 25 / 18 / 26
# (M = 4608 / 5000 / 5120, the tail forms: is the step the tail's or the size's) and
# tools/stream_k_stretch_probe.py points 11-13 (the same tokens in every launch form); the
# sanitizers on session 60's last launches (W4A16_PIECES_MIN_M 641: M = 660 / 700 in
# tools/sanitize_w4a16_pieces.py; call 7 ran memcheck on them alone).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session61_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_tail_probe 300 25 18 26
warm_points stream_k_stretch_probe 300 11 12 13
all_gpu_tests 14 360
report_warm
sanitize_script sanitize_w4a16_pieces
run_points w4a16_tail_probe 150 25 18 26
run_points stream_k_stretch_probe 200 11 12 13
echo "done after $(elapsed) s"
