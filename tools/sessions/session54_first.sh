#!/usr/bin/env bash
# Session 54 (~500 s): the swapped fused kernel's GPU tests and sanitizers, then
# tools/swapped_fused_probe.py (1024x7168 at 2048..16384 tokens, 4096x7168 at 8192 / 16384),
# then session 53's pieces PDL variants (tools/pieces_epilogue_probe.py).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session54_first.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="0 1 2 3 4 6 7"
warm_points swapped_fused_probe 250 $POINTS
warm_points pieces_epilogue_probe 250 0 1
gpu_tests 250 /tmp/logs/t-swapped.log tests/test_swiglu_quant_swapped.py
report_warm_and_tests
sanitize_script swapped_sanitize_probe
echo "sanitizers done after $(elapsed) s"
run_points swapped_fused_probe 200 $POINTS
run_points pieces_epilogue_probe 100 0 1
echo "done after $(elapsed) s"
