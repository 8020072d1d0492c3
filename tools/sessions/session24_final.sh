#!/usr/bin/env bash
# Session 24's last call: the GPU tests after the mid-M plans (plain_plan and the fused
# route: mid_m_launch) and the dequantize kernels' padding rows, memcheck (racecheck: the
# previous call, kernels unchanged since but the dequantize one, which shares nothing), then
# tools/plain_route_probe.py (12 points) and tools/fused_route_probe.py at 10 points with
# cuBLAS + silu in the same run.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session24_final.sh   (~430 s)
source "$(dirname "$0")/../device_common.sh"
FUSED_POINTS="0 4 5 8 10 12 13 14 15 16"
t=tests/test_nvfp4_gemm_swiglu_quant.py
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 220) &
gpu_tests 280 /tmp/logs/t-variants.log $t -k variants &
gpu_tests 280 /tmp/logs/t-fusedA.log $t -k "($FUSED_A) and not variants" &
gpu_tests 280 /tmp/logs/t-fusedB.log $t -k "($FUSED_B) and not ($FUSED_A or variants)" &
gpu_tests 280 /tmp/logs/t-fusedC.log $t tests/models -k "not ($FUSED_A or $FUSED_B or variants)" &
echo "racecheck skipped" > "$OUT/racecheck.txt"
gpu_tests 280 /tmp/logs/t-gemm-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 280 /tmp/logs/t-dequant.log tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py &
gpu_tests 280 /tmp/logs/t-gemm-small.log tests/test_nvfp4_gemm.py &
warm_points fused_route_probe 250 $FUSED_POINTS
warm_points plain_route_probe 250 $(seq 0 11)
fused_checks_report
timeout 55 python tools/plain_route_probe.py 2>&1 | tee "$OUT/plain_route.log"
CUTE_KERNELS_BENCH_SHAPES=$(echo $FUSED_POINTS | tr ' ' ,) timeout 65 python tools/fused_route_probe.py 2>&1 | tee "$OUT/fused_route.log"
echo "done after $(elapsed) s"
