#!/usr/bin/env bash
# Next session's first device call. Turns the plain GEMM's short-K PDL on in this device copy
# of the tree (NVFP4GemmSmallM.PDL_SHORT_K_STEPS 0 -> 1; the cache key follows the source), then:
# all GPU tests (the chain-in-a-graph tests run it at K = 2048), memcheck / racecheck, and
# tools/pdl_load_probe.py variants 2 (no PDL) and 3 (short-K rule's launch) for the figures.
# If all pass, commit PDL_SHORT_K_STEPS = 1.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session9_first.sh
source "$(dirname "$0")/../device_common.sh"
sed -i 's/^    PDL_SHORT_K_STEPS = 0$/    PDL_SHORT_K_STEPS = 1/' cute_kernels/nvfp4_gemm_small_m.py
grep -n "^    PDL_SHORT_K_STEPS" cute_kernels/nvfp4_gemm_small_m.py
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 300 /tmp/logs/t-models.log tests/models tests/test_nvfp4_quant.py tests/test_constants.py tests/test_gate_up_weight.py &
report_checks
for v in 2 3; do
  PDL_LOAD_VARIANT=$v CUTE_KERNELS_BENCH_SHAPES=6 timeout 60 python tools/pdl_load_probe.py 2>&1 | tee -a "$OUT/pdl_load.log"
done
echo "done after $(elapsed) s"
