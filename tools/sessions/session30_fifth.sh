#!/usr/bin/env bash
# Session 30's fifth call (~400 s): split-K added in the launch (stream-K on tiles x splits
# CTAs). In the background: memcheck and racecheck on tools/sanitize_probe.py (split-K among
# its launches), the GEMM / large-M GPU tests and the fused op's split-route, route and W4A16
# tests, and the warm-ups of the suites' small-weight shapes; then the nvfp4_gemm suite on
# 4096x7168 and 7168x2048 and the swiglu suite on 1024x7168 and 4096x7168 (QuACK and cuBLAS
# in the same run).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_fifth.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "split or route or w4a16 or matches_reference" &
warm_suite nvfp4_gemm 5 6
warm_suite swiglu 2 3
report_checks
cat "$OUT/checks.txt"
CUTE_KERNELS_BENCH_SHAPES=5,6 timeout 200 python -m cute_kernels.bench nvfp4_gemm \
  --out "$OUT/bench" 2>&1 | tee "$OUT/nvfp4_gemm_suite.log" | grep -vE "^\s*$" | tail -25
CUTE_KERNELS_BENCH_SHAPES=2,3 timeout 200 python -m cute_kernels.bench swiglu \
  --out "$OUT/bench" 2>&1 | tee "$OUT/swiglu_suite.log" | grep -vE "^\s*$" | tail -22
echo "done after $(elapsed) s"
