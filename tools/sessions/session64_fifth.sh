#!/usr/bin/env bash
# Session 64 call 5 (~200 s): tests/test_nvfp4_gemm_large_m.py's GPU tests (plain_part_wave_lanes'
# fp64 test) during the compiles; tools/plain_rules_probe.py points 9..12
# (plain_part_wave_lanes at 4096x7168 M = 320 and 4096x5120 M = 260 / 300 / 384).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session64_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_rules_probe 200 9,10 11,12
all_gpu_tests 6 200 tests/test_nvfp4_gemm_large_m.py
report_warm
run_points plain_rules_probe 100 9,10,11,12
echo "done after $(elapsed) s"
