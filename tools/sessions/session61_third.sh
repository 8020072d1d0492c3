#!/usr/bin/env bash
# Session 61 call 3 (~400 s): lanes on 256-token tiles only, and W4A16 tails on 256-token
# tiles read in place whatever their fill (the 256-token plans where the padding is at most 5%
# of M): tools/w4a16_wide_tail_probe.py (1024x7168 M = 4700..10000 and 1300, 4096x7168
# M = 2100 / 8000 / 10000, against session 60's rule) beside the fused route GPU tests, then
# memcheck / racecheck on tools/sanitize_stream_k_lanes.py (M = 4700).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session61_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_wide_tail_probe 300 0 1 2 3 4 5 6 7 8
all_gpu_tests 14 240 tests/test_stream_k_lanes.py tests/test_w4a16_stream_k.py \
  tests/test_k_order.py tests/test_nvfp4_gemm_swiglu_quant.py tests/test_bf16_weights.py \
  tests/test_permuted_fp4.py
report_warm
run_points w4a16_wide_tail_probe 150 0 1 2 3 4 5 6 7 8
sanitize_script sanitize_stream_k_lanes
echo "done after $(elapsed) s"
