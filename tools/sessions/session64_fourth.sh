#!/usr/bin/env bash
# Session 64 call 4 (~250 s): the GPU tests of tests/test_stream_k_lanes.py (the lane-bands
# test now with FUSED_LANES_128 off) and tests/test_nvfp4_gemm_large_m.py (plain_narrow_launch's
# fp64 test), during the compiles; then tools/plain_rules_probe.py (named short_hybrid_probe.py
# when it ran) at its 9 points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session64_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_rules_probe 200 0,1,2 3,4,5 6,7,8
all_gpu_tests 8 240 tests/test_stream_k_lanes.py tests/test_nvfp4_gemm_large_m.py
report_warm
run_points plain_rules_probe 150 $(seq -s, 0 8)
echo "done after $(elapsed) s"
