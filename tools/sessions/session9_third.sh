#!/usr/bin/env bash
# The unit-scale dequantize kernel (bf16_activations) and the fused stream-K tile rule: the
# dequantize, GEMM and fused GPU tests, memcheck / racecheck, tools/dequant_unit_probe.py (unit
# against general kernel) and tools/fused_large_m_probe.py (route against the pair), the probes
# warmed in parallel with the tests.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session9_third.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 320 /tmp/logs/t-dequant.log tests/test_nvfp4_dequant.py &
gpu_tests 320 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 320 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/dequant_unit_probe.py > /tmp/logs/warm-dq$i.log 2>&1 &
done
for i in 0 1 2 3 4 5 6 7; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/fused_large_m_probe.py > /tmp/logs/warm-flm$i.log 2>&1 &
done
report_checks
timeout 90 python tools/dequant_unit_probe.py 2>&1 | tee "$OUT/dequant_unit.log"
timeout 150 python tools/fused_large_m_probe.py 2>&1 | tee "$OUT/fused_large_m.log"
echo "done after $(elapsed) s"
