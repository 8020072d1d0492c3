#!/usr/bin/env bash
# Session 55 (~360 s, prepared in session 54): the swiglu suite's 1024x7168 and 4096x7168
# shapes (indices 2, 3) on the swapped route, for the crossover table (issue 6: every M, fused
# against the unfused pair and cuBLAS + silu), and the swapped tests once more; then what the
# K pieces' fix-up costs (tools/pieces_fixup_probe.py, 1024x7168 M = 512 / 1024).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session55_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2 3
warm_points pieces_fixup_probe 240 0 1
gpu_tests 250 /tmp/logs/t-swapped.log tests/test_swiglu_quant_swapped.py
report_warm_and_tests
run_points pieces_fixup_probe 150 0 1
run_suite swiglu 250 2 3
suite_lines
echo "done after $(elapsed) s"
