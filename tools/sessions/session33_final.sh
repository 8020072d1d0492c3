#!/usr/bin/env bash
# Session 33's last call (~500 s): the public GEMM's GPU tests on its new routes (64-row tiles,
# the small-M regime's short-K crossovers) and the models' (DeepSeek-V3's 7168x2048
# down_proj), the nvfp4_gemm suite warmed meanwhile; then the suite on 4096x7168 and
# 7168x2048 (shape indices 5, 6: cuBLAS and QuACK in the same run).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session33_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "reference or route or packed" &
gpu_tests 300 /tmp/logs/t-models.log tests/models &
warm_suite nvfp4_gemm 5 6
wait
test_summary | tee "$OUT/checks.txt"
echo "tests done after $(elapsed) s"
for i in 5 6; do
  CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python -m cute_kernels.bench nvfp4_gemm \
    --out "$OUT/gemm$i" >> "$OUT/bench-gemm.log" 2>&1
  echo "gemm shape $i exit $? at $(elapsed) s"
done
grep -E "W4A4 permuted|W4A16 " "$OUT/bench-gemm.log" | head -40
