#!/usr/bin/env bash
# Session 60 call 3 (~250 s): the 256-token plans on W4A16 token tails (W4A16_256_ON_TAILS:
# 1024x7168 at 884..1020 four K pieces, 1140..1276 three, stream-K past 1396 where the last
# 256-token tile is at least 45% full): their tests (tests/test_w4a16_stream_k.py, the public
# op at 1000 / 1200 / 2500 against the reference), memcheck / racecheck
# (tools/sanitize_w4a16_pieces.py), then tools/w4a16_tail_probe.py points 3 and 9-20 (the
# 128-token tail rule at emptier tiles and on three K pieces; the new launches against
# session 59's and session 58's routes; 4096-row weights' 256-token stream-K on tails).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session60_third.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="3 9 10 11 12 13 14 15 16 17 18 19 20"
# shellcheck disable=SC2086
warm_points w4a16_tail_probe 300 $POINTS
all_gpu_tests 6 150 tests/test_w4a16_stream_k.py
report_warm
sanitize_script sanitize_w4a16_pieces
# shellcheck disable=SC2086
run_points w4a16_tail_probe 300 $POINTS
echo "done after $(elapsed) s"
