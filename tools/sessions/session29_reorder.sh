#!/usr/bin/env bash
# Prepared in session 28 for branch reorder-kernel (~250 s): the GPU tests of the W4A16
# reordering kernel (``reorder_k``: bit-equal to ``order_k``, W4A16 on permuted words through
# it, its graph capture), memcheck, then tools/w4a16_order_probe.py with the kernel's copy:
# does the byte order now pay for W4A16 on packed bytes at one CTA an SM too
# (``wgmma_k_order``'s two-CTA rule)? Merge the branch if the tests pass; move the rule if the
# "bytes" column wins.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_reorder.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-order.log tests/test_k_order.py &
gpu_tests 200 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "w4a16 or graph or fp64" &
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "w4a16 or fp64" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
warm_points w4a16_order_probe 200 $(seq 0 11)
wait
echo "tests + warm-up done after $(elapsed) s"
test_summary
cat "$OUT/memcheck.txt"
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3,4,5,6,7,8,9,10,11 timeout 200 python tools/w4a16_order_probe.py \
  2>&1 | tee "$OUT/w4a16_order.log"
echo "done after $(elapsed) s"
