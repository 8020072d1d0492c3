#!/usr/bin/env bash
# Session 24's fourth call: the dequantize kernels writing the padding rows themselves and the
# fused op's mid-M launch model (fused_mid_m_launch): the fused tests with memcheck /
# racecheck, the plain large-M / dequant / nvfp4_gemm GPU tests (two processes), then
# tools/fused_route_probe.py (20 points) and tools/plain_route_probe.py (12 points).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session24_checks2.sh   (~450 s)
source "$(dirname "$0")/../device_common.sh"
start_fused_checks
gpu_tests 330 /tmp/logs/t-gemm-large.log tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py &
gpu_tests 330 /tmp/logs/t-gemm-small.log tests/test_nvfp4_gemm.py &
warm_points fused_route_probe 250 $(seq 0 19)
warm_points plain_route_probe 250 $(seq 0 11)
fused_checks_report
timeout 100 python tools/fused_route_probe.py 2>&1 | tee "$OUT/fused_route.log"
timeout 100 python tools/plain_route_probe.py 2>&1 | tee "$OUT/plain_route.log"
echo "done after $(elapsed) s"
