#!/usr/bin/env bash
# Prepared in session 28 for branch packed-pairs (~400 s): the GPU tests of KOrder.PAIRS
# (packed bytes decoded by multiply, activations in PERMUTED_K_ORDER; the public rule takes it
# on this branch) and memcheck, then tools/packed_order_probe.py's "pairs" against "bytes"
# (SASS on the CPU: 2120 against 2344 instructions at 32-token tiles, permuted words 1960).
# Merge if the tests pass and "pairs" is the faster; then remove BYTES (its order, dequantize
# kernel and tests), which PAIRS would replace.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_pairs.sh
source "$(dirname "$0")/../device_common.sh"
warm_points packed_order_probe 250 $(seq 0 14)
gpu_tests 280 /tmp/logs/t-order.log tests/test_k_order.py tests/test_nvfp4_dequant.py &
gpu_tests 280 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py -k "two_k_groups or fp64" &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large_m" &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "packed or fp64 or route" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
wait
echo "tests + warm-up done after $(elapsed) s"
test_summary
cat "$OUT/memcheck.txt"
timeout 240 python tools/packed_order_probe.py 2>&1 | tee "$OUT/packed_order.log"
echo "done after $(elapsed) s"
