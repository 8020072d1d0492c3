#!/usr/bin/env bash
# Session 39's last call (~430 s): after the in-kernel activation conversion left main (the
# launch code of nvfp4_gemm and the fused op back to the pass alone; the kernels hash
# identical), the GEMM, fused-op and trigger GPU tests, and memcheck on
# tools/sanitize_probe.py.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session39_checks.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 420 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 420 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  tests/test_pdl_trigger.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 300) &
wait
tail -2 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
