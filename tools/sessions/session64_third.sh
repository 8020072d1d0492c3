#!/usr/bin/env bash
# Session 64 call 3 (~430 s): the GPU tests of the files session 64's rules touch
# (plain_narrow_launch; FUSED_LANES_128 on), during the probes' compiles; then
# tools/plain_narrow_probe.py at its 13 points not yet measured (20..32) and
# tools/small_m_plans_probe.py points 12..17 (7168x2048 at 2450 / 2800 / 3000 / 4750 tokens
# on whole 256-token tiles; 4096x7168 at 260 / 384 / 450 on whole 128-token tiles).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session64_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_narrow_probe 240 20,21,22,23 24,25,26,27,28 29,30,31,32
warm_points small_m_plans_probe 240 12,13,14 15,16,17
all_gpu_tests 12 300 tests/test_stream_k_lanes.py tests/test_nvfp4_gemm.py \
  tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm_swiglu_quant.py \
  tests/test_w4a16_stream_k.py
report_warm
run_points plain_narrow_probe 150 $(seq -s, 20 32)
run_points small_m_plans_probe 150 $(seq -s, 12 17)
echo "done after $(elapsed) s"
