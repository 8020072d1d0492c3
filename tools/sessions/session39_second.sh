#!/usr/bin/env bash
# Session 39's second call (prepared in session 38, ~300 s): compute-sanitizer racecheck on
# tools/sanitize_probe.py, whose last sections run the wgmma kernels decoding their NVFP4
# activations in the kernel (a new writer of shared memory: the producer warpgroup's converter
# warps, read by the consumers' wgmma), after session39_first.sh's memcheck; beside it the
# public functions' GPU tests with those kernels in place of the pass + GEMM wherever they run
# (CUTE_KERNELS_TEST_FP4_OPERAND=1, tests/conftest.py): every shape and tail of the GEMM and
# fused-op tests on the new path.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session39_second.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_TEST_FP4_OPERAND=1
gpu_tests 290 /tmp/logs/t-gemm-fp4.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 290 /tmp/logs/t-fused-fp4.log tests/test_nvfp4_gemm_swiglu_quant.py \
  tests/test_pdl_trigger.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize racecheck 240) &
wait
tail -2 /tmp/logs/probe.log; cat "$OUT/racecheck.txt"
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
