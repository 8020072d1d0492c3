#!/usr/bin/env bash
# Session 34's first call (~350 s), checking what session 33 landed after its last device call:
# - GPU tests: the public GEMM route at 129..256 tokens (64-row tiles) and the fused op's split
#   route on them (`wg_k_split_route`, 4096x7168 from 17 tokens);
# - the nvfp4_gemm suite on 4096x7168 (issue 5's M = 256 at >= 0.9x cuBLAS on the new route) and
#   the swiglu suite on 4096x7168 (the fused op against the unfused pair, whose GEMM runs the
#   64-row tiles: "never slower than the pair"; QuACK + silu + quant at M = 64);
# - the activations' dequantization's share of the 64-row-tile launches
#   (CUTE_KERNELS_PROBE_ALONE=1: 7168x2048 M = 64 / 32, 4096x7168 M = 64 / 32).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session34_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 250 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
gpu_tests 250 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "wg_k_split" &
warm_suite nvfp4_gemm 5
warm_suite swiglu 3
wait
test_summary | tee "$OUT/checks.txt"
CUTE_KERNELS_BENCH_SHAPES=5 timeout 150 python -m cute_kernels.bench nvfp4_gemm \
  --out "$OUT/gemm5" > "$OUT/bench-gemm.log" 2>&1
echo "gemm shape 5 exit $? at $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=3 timeout 150 python -m cute_kernels.bench swiglu \
  --out "$OUT/swiglu3" > "$OUT/bench-swiglu.log" 2>&1
echo "swiglu shape 3 exit $? at $(elapsed) s"
grep -E "W4A4 permuted|permuted " "$OUT/bench-gemm.log" "$OUT/bench-swiglu.log"
CUTE_KERNELS_PROBE_ALONE=1 CUTE_KERNELS_BENCH_SHAPES=0,1,4,5 timeout 100 \
  python tools/wg_k_split_probe.py 2>&1 | tee "$OUT/wg_k_split_probe.log"
echo "done after $(elapsed) s"
