#!/usr/bin/env bash
# Session 62 call 3 (~400 s): the GPU tests of the files the session's rules touch (lanes of
# up to 32 row tiles in the fused kernel; the plain GEMM's 256-token stream-K in lanes, also
# in place of the hybrid); tools/plain_lanes_probe.py on the rule (4096x7168 M = 1100..4500,
# 1024x7168 M = 2500..12000: plan / hybrid / plain ranges / lanes); tools/stream_k_lanes_probe.py
# points 15-17 (1024x7168 W4A16 M = 1200 / 1250 / 1280: the 128-token stream-K against whole
# 128-token tiles).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session62_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_lanes_probe 300 0 1 2 3 4 5 6 7 8 9
warm_points stream_k_lanes_probe 300 15 16 17
all_gpu_tests 12 300 tests/test_stream_k_lanes.py tests/test_nvfp4_gemm.py \
  tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm_swiglu_quant.py \
  tests/test_w4a16_stream_k.py
report_warm
run_points plain_lanes_probe 200 0 1 2 3 4 5 6 7 8 9
run_points stream_k_lanes_probe 100 15 16 17
echo "done after $(elapsed) s"
