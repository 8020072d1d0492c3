#!/usr/bin/env bash
# Session 70 call 1 (~470 s, prepared in session 69): every GPU test on session 69's rules (the
# fused op's hybrid on fitted widths, its fitted launch in place of whole 128-token tiles on
# K = 7168, whole 128-token tiles for its 256-token routes past 1024 tokens). Session 69 ran
# only tests/test_fitted_tiles.py and tests/test_stream_k_lanes.py on them.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session70_first.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 16 450
echo "done after $(elapsed) s"
