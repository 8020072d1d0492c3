#!/usr/bin/env bash
# Session 60 call 4 (~300 s): session 60's W4A16 tail rule (k_order.w4a16_tail_in_place: narrow
# weights' tails on up to 128-token tiles whatever the fill, 256-token tiles from 45% on
# weights up to 5120 rows; the fused op's three K pieces of 128-token tiles keep the copy,
# W4A16_COPY_ON_PIECES): the fused route tests, memcheck / racecheck
# (tools/sanitize_w4a16_pieces.py), tools/w4a16_tail_probe.py on the public route at points
# it changed (1024x7168 M = 580 / 640 / 1030 / 1300; 4096x7168 M = 1200 / 3000 / 5000).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session60_fourth.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="10 21 12 13 22 23 24"
# shellcheck disable=SC2086
warm_points w4a16_tail_probe 300 $POINTS
all_gpu_tests 8 240 tests/test_w4a16_stream_k.py tests/test_k_order.py \
  tests/test_nvfp4_gemm_swiglu_quant.py tests/test_bf16_weights.py tests/test_permuted_fp4.py
report_warm
sanitize_script sanitize_w4a16_pieces
# shellcheck disable=SC2086
run_points w4a16_tail_probe 300 $POINTS
echo "done after $(elapsed) s"
