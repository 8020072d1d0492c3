#!/usr/bin/env bash
# Session 52 (~100 s): the GPU tests parametrized over every KOrder that failed in call 3
# (packed bytes given to PERMUTED_IDENTITY), after WORD_ORDERS.
source "$(dirname "$0")/../device_common.sh"
gpu_tests 280 /tmp/logs/t-orders.log tests/test_nvfp4_gemm_large_m.py tests/test_wg_k_split.py \
  -k "two_k_groups or wg_k_split_matches or pair_pieces_match"
wait
test_summary
echo "done after $(elapsed) s"
