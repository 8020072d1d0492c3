#!/usr/bin/env bash
# Prepared in session 24 for session 25's first call: the GPU test files session 24's calls
# could not finish beside the fused tests and warm-ups (plain large-M with the padded
# activations test, nvfp4_gemm on the mid-M plans, dequantize + permuted with the fixed
# padded-rows test), alone, then memcheck; then tools/plain_route_probe.py at M = 129 and
# 256 on 9216x7168 and 7168x18432 (W4A16 with the padded K-permuting copy against unpadded).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_first.sh   (~360 s)
source "$(dirname "$0")/../device_common.sh"
gpu_tests 420 /tmp/logs/t-gemm-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 420 /tmp/logs/t-gemm-small.log tests/test_nvfp4_gemm.py &
gpu_tests 420 /tmp/logs/t-dequant.log tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 220) &
echo "racecheck skipped" > "$OUT/racecheck.txt"
warm_points plain_route_probe 250 10 11 0 4
report_checks
CUTE_KERNELS_BENCH_SHAPES=10,11,0,4 timeout 100 python tools/plain_route_probe.py 2>&1 | tee "$OUT/plain_route.log"
echo "done after $(elapsed) s"
