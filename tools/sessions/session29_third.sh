#!/usr/bin/env bash
# Session 29, call 3 (~450 s): packed bytes take KOrder.PAIRS in every wgmma launch (W4A16 too,
# through reorder_k), the byte order removed, W4A16's 128 Mi cap at 9..16 tokens dropped and
# packed bytes on the permuted words' wgmma_from_9_tokens bar. The GPU tests and memcheck,
# W4A16 identity / pairs at one CTA an SM and M = 256 / 1024 (is pairs still ahead there?),
# packed_order_probe at M = 16 (5120x17408 now on the wgmma route), then the nvfp4_gemm suite
# on 7168x18432 and 36864x7168 (README's packed / permuted table; W4A16 against QuACK).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_third.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 260 /tmp/logs/t-order.log tests/test_k_order.py tests/test_nvfp4_dequant.py &
gpu_tests 260 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "w4a16 or packed or fp64 or route" &
gpu_tests 260 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py -k "two_k_groups or fp64" &
gpu_tests 260 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large_m or route or packed" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
warm_points w4a16_order_probe 200 2 3 5 7 11
warm_points packed_order_probe 200 2 3
warm_suite nvfp4_gemm 0 2
wait
echo "tests + warm-up done after $(elapsed) s"
test_summary
cat "$OUT/memcheck.txt"
grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
CUTE_KERNELS_BENCH_SHAPES=2,3,5,7,11 timeout 150 python tools/w4a16_order_probe.py \
  2>&1 | tee "$OUT/w4a16_order.log"
CUTE_KERNELS_BENCH_SHAPES=2,3 timeout 60 python tools/packed_order_probe.py \
  2>&1 | tee "$OUT/packed_order.log"
echo "probes done after $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=0,2 timeout 240 python -m cute_kernels.bench nvfp4_gemm --out "$OUT/suite" \
  > "$OUT/suite.log" 2>&1
tail -c 4000 "$OUT/suite.log"
echo "done after $(elapsed) s"
