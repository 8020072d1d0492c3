#!/usr/bin/env bash
# Session 58 call 3 (~330 s): the swapped kernel's cluster pairs on (SWAPPED_PAIRS, 1024x7168
# M = 1536..2048) and its stream-K where the normal route is stream-K (M = 2304 / 2500), as
# the public route: the fused op's GPU tests (both files), tools/swapped_pair_probe.py points
# 0-7 ("fp4" is now the route; 6 / 7 are M = 1664 / 2100, between those measured) and the
# swiglu suite's 1024x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session58_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2
warm_points swapped_pair_probe 250 0 1 2 3 4 5 6 7
all_gpu_tests 8 300 tests/test_swiglu_quant_swapped.py tests/test_nvfp4_gemm_swiglu_quant.py
report_warm
run_points swapped_pair_probe 150 0 1 2 3 4 5 6 7
run_suite swiglu 100 2
suite_lines
echo "done after $(elapsed) s"
