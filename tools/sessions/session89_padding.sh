#!/usr/bin/env bash
# Session 89: the fused small-M launches' scale padding as whole words (the new default) against
# a byte a row, tools/padding_words_probe.py points 0..6 (the register and K-split paths at
# 1..16 tokens; the balanced launch is tools/fused_gap_probe.py's). Either card (~120 s on an
# H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_padding.sh
source "$(dirname "$0")/../device_common.sh"
warm_points padding_words_probe 200 0 1 2 3 4 5 6
report_warm
run_points padding_words_probe 150 0 1 2 3 4 5 6
echo "done after $(elapsed) s"
