#!/usr/bin/env bash
# Session 34's third call (~400 s): the pair route (``wg_k_pairs``: 4096x7168 at 17..64 tokens in
# clusters of two CTAs) in the GPU tests and the nvfp4_gemm / swiglu suites on 4096x7168, and
# tools/fused_wgk_route_probe.py (where the fused op's fp32 split route loses to the pair).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session34_pair_route.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 250 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
gpu_tests 250 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "wg_k_split" &
warm_points fused_wgk_route_probe 200 0 1 2 3
warm_suite nvfp4_gemm 5
warm_suite swiglu 3
wait
test_summary | tee "$OUT/checks.txt"
timeout 150 python tools/fused_wgk_route_probe.py 2>&1 | tee "$OUT/fused_wgk_route.log"
echo "probe done at $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=5 timeout 150 python -m cute_kernels.bench nvfp4_gemm \
  --out "$OUT/gemm5" > "$OUT/bench-gemm.log" 2>&1
echo "gemm shape 5 exit $? at $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=3 timeout 150 python -m cute_kernels.bench swiglu \
  --out "$OUT/swiglu3" > "$OUT/bench-swiglu.log" 2>&1
echo "swiglu shape 3 exit $? at $(elapsed) s"
grep -E "W4A4 permuted|permuted " "$OUT/bench-gemm.log" "$OUT/bench-swiglu.log" | cut -c1-220
