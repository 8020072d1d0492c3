#!/usr/bin/env bash
# Session 59 call 3 (~300 s): mid_m_launch's 128-token stream-K as whole 128-token tiles in two
# to four K pieces where those fit one wave (stream_k_pieces: 1024x7168 at 513..896 tokens),
# W4A16 four pieces of 256-token tiles from 768 tokens: the GPU tests of the fused routes,
# memcheck / racecheck (tools/sanitize_w4a16_pieces.py), tools/stream_k_stretch_probe.py on the
# public route at M = 512 / 640 / 700 / 768 / 896 / 1024.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session59_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_stretch_probe 300 10
all_gpu_tests 8 300 tests/test_w4a16_stream_k.py tests/test_k_order.py \
  tests/test_nvfp4_gemm_swiglu_quant.py tests/test_bf16_weights.py
report_warm
sanitize_script sanitize_w4a16_pieces
run_points stream_k_stretch_probe 250 6 7 10 8 9 4
echo "done after $(elapsed) s"
