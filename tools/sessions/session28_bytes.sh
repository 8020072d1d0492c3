#!/usr/bin/env bash
# Session 28, call 3 (~450 s): the byte K order for packed weights in the wgmma kernels
# (``KOrder.BYTES``): its GPU tests (the order's own file, dequantize, permuted words, the
# wgmma GEMM's two-K-group paths, the fused op's file, the public GEMM's reference / route /
# graph tests) and memcheck, beside the warm-up of tools/packed_order_probe.py; then the probe.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_bytes.sh
source "$(dirname "$0")/../device_common.sh"
warm_points packed_order_probe 250 $(seq 0 14)
gpu_tests 280 /tmp/logs/t-order.log tests/test_k_order.py tests/test_nvfp4_dequant.py \
  tests/test_permuted_fp4.py &
gpu_tests 280 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py -k "two_k_groups or fp64" &
gpu_tests 290 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py \
  -k "fp64 or route or graph or chain or alpha" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
wait
echo "tests + warm-up done after $(elapsed) s"
test_summary
cat "$OUT/memcheck.txt"
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 240 python tools/packed_order_probe.py 2>&1 | tee "$OUT/packed_order.log"
echo "done after $(elapsed) s"
