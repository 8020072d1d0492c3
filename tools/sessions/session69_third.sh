#!/usr/bin/env bash
# Session 69 call 3 (~330 s): with FUSED_FITTED_HYBRID on (call 2: the fused hybrid won at all
# five points and beat the pair), the GPU tests it and call 1's failure touch (the public fused
# hybrid; the lane-bands test without the fitted tiles), side by side with the warm-ups; then
# tools/whole_128_probe.py (nvfp4_gemm where the model keeps whole 128-token tiles on 9216x7168)
# and tools/fused_gaps_probe.py points 11..16 (the fused op there; measured fused picks that the
# hybrid now takes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_third.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 250 /tmp/logs/t-hybrid.log tests/test_fitted_tiles.py -k "public_fused_hybrid" &
gpu_tests 250 /tmp/logs/t-lanes.log tests/test_stream_k_lanes.py -k "lane_bands" &
warm_points whole_128_probe 200 0 1 2 3
warm_points fused_gaps_probe 200 $(seq 11 16)
report_warm_and_tests
run_points whole_128_probe 120 0,1,2,3
run_points fused_gaps_probe 200 $(seq -s, 11 16)
echo "done after $(elapsed) s"
