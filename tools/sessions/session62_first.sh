#!/usr/bin/env bash
# Session 62 call 1 (~500 s, prepared in session 61): every GPU test (session 61's last
# changes ran in part only: `large_m_launch` in `_check_large_m_routes` / `_order`;
# tests/test_stream_k_lanes.py's lanes of 32 row tiles with the bar raised, fused 4096x7168
# and the plain `nvfp4_gemm` in lanes); memcheck / racecheck on
# tools/sanitize_stream_k_lanes.py (now with 4096x7168 in lanes of 32, fused and plain);
# tools/stream_k_lanes_probe.py points 0-2 (1024x7168 M = 1030 / 1100 / 1300 with bf16
# weights on whole 128-token tiles beside) and 11 / 13 (4096x7168 M = 1200 / 2500 in lanes of
# 32). Then raise STREAM_K_LANES_MAX_ROW_TILES to 32 if the tests pass and the probe agrees;
# session62_second.sh measures the plain GEMM's lanes (PLAIN_STREAM_K_LANES, off).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session62_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_lanes_probe 300 0 1 2 11 13
warm_points plain_lanes_probe 300 0 1 2 3 4 5
all_gpu_tests 14 360
report_warm
sanitize_script sanitize_stream_k_lanes 200
run_points stream_k_lanes_probe 150 0 1 2 11 13
echo "done after $(elapsed) s"
