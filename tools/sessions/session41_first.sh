#!/usr/bin/env bash
# Session 41's first call (prepared in session 40, ~560 s): the GPU tests of the GEMM, the fused
# op and the PDL trigger, whole, on session 40's prefetch before the PDL wait (256 K elements
# of weights, ``NVFP4GemmLargeM.PREFETCH_K``; session 40 ran only test_pdl_trigger.py on it,
# and its probe checked the outputs equal to the stages' prefetch at 25 points).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session41_first.sh
source "$(dirname "$0")/../device_common.sh"
# one process a file: each compiles its kernels on its own core
gpu_tests 540 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py &
gpu_tests 540 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 540 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 540 /tmp/logs/t-models.log tests/models tests/test_pdl_trigger.py &
wait
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
