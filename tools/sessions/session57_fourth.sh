#!/usr/bin/env bash
# Session 57 call 4 (~200 s): the bf16 weights' GPU tests on the narrowed route (whole 128-token
# tiles) and the fixed pieces test, the sanitizers on the public whole-tile launch, then
# tools/bf16_weights_probe.py points 16-18: 1024x7168 M = 2500 / 3072 / 1100 (stream-K, where
# W4A16 trails cuBLAS + silu 0.70-0.81x) with 256-token stream-K tiles, W4A16 and W4A4.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session57_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points bf16_weights_probe 250 16 17 18
gpu_tests 300 /tmp/logs/t-bf16.log tests/test_bf16_weights.py \
  tests/test_nvfp4_gemm_swiglu_quant.py::test_large_m_pieces_match_reference &
report_warm_and_tests
sanitize_script sanitize_bf16_weights
echo "sanitizers done after $(elapsed) s"
run_points bf16_weights_probe 200 16 17 18
echo "done after $(elapsed) s"
