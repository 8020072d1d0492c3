#!/usr/bin/env bash
# Session 65 call 6 (~200 s): tools/plain_vs_cublas_sweep.py at 300 and 600 tokens on every
# issue 5 shape (points 0,1,6,7,...,36,37) on the fitted token tiles' plans, and the 128-token
# lanes' fp64 tests (without the fitted tiles, tests/conftest.without_fitted_tiles).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_vs_cublas_sweep 200 0,1,6,7,12 13,18,19,24,25 30,31,36,37
gpu_tests 200 /tmp/logs/t-lanes.log tests/test_stream_k_lanes.py -k plain_128_lanes_route &
report_warm
tail -2 /tmp/logs/t-lanes.log; cp /tmp/logs/t-lanes.log "$OUT/gpu-tests-lanes.log"
run_points plain_vs_cublas_sweep 200 0,1,6,7,12,13,18,19,24,25,30,31,36,37
echo "done after $(elapsed) s"
