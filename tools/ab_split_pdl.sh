#!/usr/bin/env bash
# PDL for one wave of register-path K splits (PDL_ONE_WAVE_SPLITS) against the tree, at 3..8
# tokens on the long-K shapes (5120x17408: (1, 1, 4, 1, 2), 640 CTAs; 7168x18432: (2, 1, 4, 1,
# 3)), three rounds; alongside, the fused kernel's GPU tests and memcheck + racecheck on the
# tree. Packages: ab_base/ (the tree as is), ab_split/ (the flag on).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_split_pdl.sh   (~270 s)
source "$(dirname "$0")/device_common.sh"
rm -rf ab_base ab_split && mkdir -p ab_base ab_split && cp -r cute_kernels layouts ab_base/ && cp -r cute_kernels layouts ab_split/
sed -i "s/^    PDL_ONE_WAVE_SPLITS = False/    PDL_ONE_WAVE_SPLITS = True/" ab_split/cute_kernels/nvfp4_gemm_small_m.py
grep -q "^    PDL_ONE_WAVE_SPLITS = True" ab_split/cute_kernels/nvfp4_gemm_small_m.py || { echo "flag not found"; exit 2; }
export CUTE_KERNELS_BENCH_SHAPES=0,1 LOOP_MS=4,8
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
ab_warm 200 ab_base ab_split
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
ab_rounds 60 3 ab_base ab_split
echo "done after $(elapsed) s"
