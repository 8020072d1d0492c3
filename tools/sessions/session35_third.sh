#!/usr/bin/env bash
# Session 35's third call (~450 s): the routed PDL trigger (``pdl_trigger_pays``) in the GPU
# tests (tests/test_pdl_trigger.py's graph chains, nvfp4_gemm's routes, the large-M and
# wg_k_split kernels) and memcheck, then the nvfp4_gemm suite on 7168x2048, 9216x7168 and
# 7168x18432 (shape indices 6, 4, 0), warmed in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session35_third.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_pdl_trigger.py tests/test_nvfp4_gemm.py &
gpu_tests 300 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py tests/test_wg_k_split.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
warm_suite nvfp4_gemm 6 4 0
wait
test_summary | tee "$OUT/checks.txt"; cat "$OUT/memcheck.txt" | tee -a "$OUT/checks.txt"
echo "checks done at $(elapsed) s"
for i in 6 4 0; do
  CUTE_KERNELS_BENCH_SHAPES=$i timeout 120 python -m cute_kernels.bench nvfp4_gemm \
    --out "$OUT/gemm$i" > "$OUT/bench-gemm$i.log" 2>&1
  echo "gemm shape $i exit $? at $(elapsed) s"
done
grep -h -E "W4A4 permuted" "$OUT"/bench-gemm*.log | cut -c1-200
