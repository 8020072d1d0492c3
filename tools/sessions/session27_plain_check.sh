#!/usr/bin/env bash
# Session 27, call 7 (<= 420 s): the plain GEMM's packed-bytes rule (small kernel with the
# register prefetch at 9..16 fp4 tokens): its GPU tests, then the nvfp4_gemm suite on
# 36864x7168 and 7168x18432 (packed and permuted rows).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_plain_check.sh
source "$(dirname "$0")/../device_common.sh"
for i in 2 0; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > /tmp/logs/warm-gemm$i.log 2>&1 &
done
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py \
  -k "packed_weights or every_tile_config" &
wait
echo "warm-up + tests done after $(elapsed) s: gemm tests $(tail -1 /tmp/logs/t-gemm.log)"
grep -E "^FAILED|^ERROR|^E  " /tmp/logs/t-gemm.log | head -10
grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
budget=380
for i in 2 0; do
  left=$(( budget - $(elapsed) )); [ "$left" -gt 25 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
done
echo "done after $(elapsed) s"
grep -E "W4A4 +(permuted )?M=(8|12|16|32) " "$OUT/bench-gemm.log" | cut -c1-200 | head -30
