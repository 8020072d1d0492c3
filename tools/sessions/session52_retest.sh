#!/usr/bin/env bash
# Session 52 (~200 s): the GPU tests parametrized over every KOrder that failed in call 3
# (packed bytes given to PERMUTED_IDENTITY), after WORD_ORDERS; then
# tools/in_place_table_probe.py (the in-place decode's scale splats from the shared table at
# 256-token tiles, NVFP4GemmLargeM.IN_PLACE_SCALE_TABLE) at four points.
source "$(dirname "$0")/../device_common.sh"
gpu_tests 280 /tmp/logs/t-orders.log tests/test_nvfp4_gemm_large_m.py tests/test_wg_k_split.py \
  -k "two_k_groups or wg_k_split_matches or pair_pieces_match" &
warm_points in_place_table_probe 240 0 1 2 3
report_warm_and_tests
run_points in_place_table_probe 200 0 1 2 3
echo "done after $(elapsed) s"
