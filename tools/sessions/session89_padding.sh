#!/usr/bin/env bash
# Session 89: the fused small-M launches' scale padding as whole words (the new default) against
# a byte a row, and the out_scale table on those paths (a probe switch), with their GPU tests:
# tools/padding_words_probe.py points 0..6 (the register and K-split paths at 1..16 tokens; the
# balanced launch is tools/fused_gap_probe.py's; 4096x7168 M = 1, point 5, read the words
# 0.2-0.4 us slower in call 19: recheck). Either card (~150 s on an H100). If "table" wins
# everywhere: NVFP4GemmSwigluQuantSmallM.EPILOGUE_TABLE = True.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_padding.sh
source "$(dirname "$0")/../device_common.sh"
warm_points padding_words_probe 200 0 1 2 3 4 5 6
gpu_tests 240 /tmp/logs/t-tail.log tests/test_fused_epilogue_tail.py &
report_warm_and_tests
run_points padding_words_probe 150 0 1 2 3 4 5 6
echo "done after $(elapsed) s"
