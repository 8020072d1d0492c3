#!/usr/bin/env bash
# Session 63 call 2 (~400 s): tools/lane_bands_probe.py: stream-K in lanes of bands of row
# tiles (built in session 62) on the issue 5 shapes wider than 32 row tiles, against the plan,
# plain ranges and cuBLAS; tools/fused_vs_cublas_sweep.py: issue 6's bars between the suite's
# points (every issue 6 shape, 300..3000 tokens, both activations; cuBLAS + silu and the
# unfused pair beside, and on 4096x7168 the fused op's 128-token stream-K forced). Where a lane
# count wins, write the rule (``stream_k_lanes`` past ``STREAM_K_LANES_MAX_ROW_TILES`` row
# tiles); where the pair beats the fused op, the route rule.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session63_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points lane_bands_probe 400 0,1 2,3,4 5,6 7,8 9
warm_points fused_vs_cublas_sweep 400 0,1,2,3,4,5 6,7,8,9,10,11 12,13,14,15,16,17 \
  18,19,20,21,22,23 24,25,26,27,28,29
report_warm
run_points lane_bands_probe 200 $(seq -s, 0 9)
run_points fused_vs_cublas_sweep 200 $(seq -s, 0 29)
echo "done after $(elapsed) s"
