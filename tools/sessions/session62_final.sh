#!/usr/bin/env bash
# Session 62 call 6 (~330 s): the 128-token stream-K in lanes on 32 row tiles
# (``STREAM_K_LANES_128_MIN_ROW_TILES``, ``plain_lanes_128``): memcheck / racecheck on
# tools/sanitize_stream_k_lanes.py beside the GPU tests of the files the rules touch, then
# tools/tile128_lanes_probe.py at 4096x7168 M = 1100 / 1700 on the rule ("plan").
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session62_final.sh
source "$(dirname "$0")/../device_common.sh"
warm_points tile128_lanes_probe 250 0 2
(sanitize_script sanitize_stream_k_lanes 240 > /tmp/logs/sanitize.txt) &
all_gpu_tests 12 300 tests/test_stream_k_lanes.py tests/test_nvfp4_gemm.py \
  tests/test_nvfp4_gemm_swiglu_quant.py tests/test_w4a16_stream_k.py
report_warm
cat /tmp/logs/sanitize.txt
run_points tile128_lanes_probe 150 0 2
echo "done after $(elapsed) s"
