#!/usr/bin/env bash
# Session 54 (~250 s): the swapped fused kernel's GPU tests (token tiles fixed) and
# tools/swapped_fused_probe.py (the normal route now really off in "normal").
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session54_second.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="0 1 2 3 4 5 6 7 8 9 10"
warm_points swapped_fused_probe 250 $POINTS
gpu_tests 250 /tmp/logs/t-swapped.log tests/test_swiglu_quant_swapped.py
sanitize_script swapped_sanitize_probe &
report_warm_and_tests
run_points swapped_fused_probe 250 $POINTS
echo "done after $(elapsed) s"
