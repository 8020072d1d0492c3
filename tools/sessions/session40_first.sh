#!/usr/bin/env bash
# Session 40's first call (prepared in session 39, ~560 s): the GPU tests of the GEMM, the
# fused op and the PDL trigger, whole, after session 39 retired the in-kernel activation
# conversion (the kernels hash identical to session 38's; the launch code of nvfp4_gemm and
# the fused op went back to its pre-conversion form). Session 39's run of them was cut short
# by compile time on a cold machine beside memcheck (23 passed, none failed); here nothing
# runs beside them.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session40_first.sh
source "$(dirname "$0")/../device_common.sh"
# one process a file: each compiles its kernels on its own core
gpu_tests 540 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py &
gpu_tests 540 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 540 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 540 /tmp/logs/t-pdl.log tests/test_pdl_trigger.py &
wait
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
