#!/usr/bin/env bash
# Session 29, call 2 (branch reorder2 = w4a16-packed-narrow + reorder-kernel rebased on
# packed-pairs): the GPU tests of both (W4A16 on packed bytes at 9..16 tokens in the wgmma
# kernel, now in PAIRS; reorder_k bit-equal to order_k in every order) and memcheck, then
# tools/w4a16_order_probe.py through reorder_k: identity / bytes / pairs on the public plans,
# and at M <= 16 the public function and the permuted words' small kernel against their wgmma
# launch.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_second.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-order.log tests/test_k_order.py &
gpu_tests 200 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "w4a16 or graph or fp64" &
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "w4a16 or fp64" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
warm_points w4a16_order_probe 200 0 1 4 6 8 9 10 12 13 14 15
wait
echo "tests + warm-up done after $(elapsed) s"
test_summary
cat "$OUT/memcheck.txt"
CUTE_KERNELS_BENCH_SHAPES=12,13,14,15,0,1,4,6,8,9,10 timeout 220 python tools/w4a16_order_probe.py \
  2>&1 | tee "$OUT/w4a16_order.log"
echo "done after $(elapsed) s"
