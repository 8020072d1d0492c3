#!/usr/bin/env bash
# Session 34's first call (~300 s): the public route's GPU tests on 64-row tiles (the 129..256
# token case was added after session 33's last device call), the nvfp4_gemm suite on
# 4096x7168 (issue 5's M = 256 at >= 0.9x cuBLAS on the new route; cuBLAS and QuACK in the same
# run), and the activations' dequantization's share of the 64-row-tile launches
# (CUTE_KERNELS_PROBE_ALONE=1: 7168x2048 M = 64 / 32, 4096x7168 M = 64 / 32).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session34_first.sh
source "$(dirname "$0")/device_common.sh"
gpu_tests 200 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
warm_suite nvfp4_gemm 5
wait
test_summary | tee "$OUT/checks.txt"
CUTE_KERNELS_BENCH_SHAPES=5 timeout 200 python -m cute_kernels.bench nvfp4_gemm \
  --out "$OUT/gemm5" > "$OUT/bench-gemm.log" 2>&1
echo "gemm shape 5 exit $? at $(elapsed) s"
grep -E "W4A4 permuted|W4A16 " "$OUT/bench-gemm.log"
CUTE_KERNELS_PROBE_ALONE=1 CUTE_KERNELS_BENCH_SHAPES=0,1,4,5 timeout 150 \
  python tools/wg_k_split_probe.py 2>&1 | tee "$OUT/wg_k_split_probe.log"
echo "done after $(elapsed) s"
