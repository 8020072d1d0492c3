#!/usr/bin/env bash
# Session 46's second call (prepared in session 45, ~450 s): deferred tails
# (``NVFP4GemmLargeM.DEFER_TAILS``, built in session 45 without device time; nvfp4-gemm-next.md
# item 00000000000000000000000 b). A CTA's first stream-K piece, when its range starts inside
# a tile, arrives through warp 3 of the producer warpgroup (a release reduction) while the
# consumers go on; after their range they claim the tile by compare-and-swap if it is
# complete and unclaimed. The device's copy of the tree turns it on (sed); ab_off/ is the
# tree's package as committed (off). First the GPU tests on it: the large-M stream-K / hybrid
# tests, the fused stream-K tests, the public GEMM's stream-K routes, memcheck + racecheck on
# tools/sanitize_probe.py (stream-K pieces across 54 and 5 CTAs). Then tools/loop_ab_probe.py,
# off / on, at M = 16 / 64 on the GEMM 7168x18432, 5120x17408, 9216x7168 and the fused
# 36864x7168 / 9216x7168 (the same bits expected: the same sums in the same order).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_defer.sh
source "$(dirname "$0")/../device_common.sh"
rm -rf ab_off && mkdir ab_off && cp -r cute_kernels layouts ab_off/
sed -i 's/^    DEFER_TAILS = False$/    DEFER_TAILS = True/' cute_kernels/nvfp4_gemm_large_m.py
grep -q "^    DEFER_TAILS = True$" cute_kernels/nvfp4_gemm_large_m.py \
  || { echo "sed missed"; exit 2; }
gpu_tests 300 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py -k "stream or hybrid" &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "stream" &
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "stream or hybrid or graph" &
sanitize_both
LOOP_MS=16,64 ab_warm_points 300 "0 1 4 7 9" ab_off .
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
LOOP_MS=16,64 CUTE_KERNELS_BENCH_SHAPES=0,1,4,7,9 ab_rounds 90 2 ab_off .
echo "done after $(elapsed) s"
