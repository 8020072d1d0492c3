#!/usr/bin/env bash
# Session 40's fourth call (~330 s): the wgmma kernels prefetching 256 K elements of weights
# before the PDL wait (``NVFP4GemmLargeM.PREFETCH_K``, was the stages): the PDL trigger's GPU
# tests, then the nvfp4_gemm suite on the shapes where issue 5's M <= 64 bars were near
# (7168x18432, 5120x17408, 9216x7168, 4096x7168, 7168x2048), cuBLAS and QuACK in the same runs.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session40_fourth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-pdl.log tests/test_pdl_trigger.py &
warm_suite nvfp4_gemm 0 1 4 5 6
wait
echo "warm-up + tests done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
test_summary | tee "$OUT/checks.txt"
run_suite nvfp4_gemm 90 5 6 0 4 1
grep -h "permuted M=" "$OUT"/bench-nvfp4_gemm*.log | grep -E "M=(1|8|16|32|64|256) " | cut -c1-175
echo "done after $(elapsed) s"
