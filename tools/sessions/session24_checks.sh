#!/usr/bin/env bash
# Session 24's third call: the activations padded to whole token tiles (bf16_activations(rows=),
# the kernels' M from the output): the fused tests with memcheck / racecheck, the plain
# large-M, dequant and nvfp4_gemm GPU tests, then tools/fused_route_probe.py at its 20 points
# (padded against unpadded, the forced routes padded).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session24_checks.sh   (~330 s)
source "$(dirname "$0")/../device_common.sh"
start_fused_checks
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_dequant.py tests/test_nvfp4_gemm.py tests/test_permuted_fp4.py &
warm_points fused_route_probe 250 $(seq 0 19)
fused_checks_report
timeout 200 python tools/fused_route_probe.py 2>&1 | tee "$OUT/fused_route.log"
echo "done after $(elapsed) s"
