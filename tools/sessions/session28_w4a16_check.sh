#!/usr/bin/env bash
# Session 28, call 6 (~200 s): the GPU tests after W4A16 on packed bytes takes the byte K order
# at two CTAs an SM (tests/test_k_order.py, the plain GEMM's W4A16 / reference tests, the
# fused op's public tests), then the nvfp4_gemm suite's 36864x7168 again (its W4A16 M = 16..64
# rows).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_w4a16_check.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-order.log tests/test_k_order.py &
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "w4a16 or fp64 or graph" &
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "matches_reference and not large_m" &
CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=2 timeout 200 python -m cute_kernels.bench \
  nvfp4_gemm --out /tmp/warmg2 > /tmp/logs/warm-gemm2.log 2>&1 &
wait
echo "tests done after $(elapsed) s"
test_summary
CUTE_KERNELS_BENCH_SHAPES=2 timeout 120 python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm2 \
  > "$OUT/bench-gemm.log" 2>&1; echo "gemm exit $? at $(elapsed) s"
grep -E "W4A16 +M=" "$OUT/bench-gemm.log"
