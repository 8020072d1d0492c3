#!/usr/bin/env bash
# Session 36's last call (~260 s): nvfp4_gemm at 9..16 tokens on permuted words through the
# wgmma kernel on 4096x7168 and 9216x7168 (plain_wgmma_from_9_tokens) and the spread pass on
# 16-token stream-K tiles: the trigger GPU tests (W4A4 graph chains) and the 64-row-tile
# public routes beside the suites' warm-up, then the nvfp4_gemm suite on 4096x7168 and
# 9216x7168 (shapes 5, 4).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_closing.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 130 /tmp/logs/t-trigger.log tests/test_pdl_trigger.py &
gpu_tests 130 /tmp/logs/t-wgk.log tests/test_wg_k_split.py -k public_route &
warm_suite nvfp4_gemm 5 4
wait
test_summary | tee "$OUT/checks.txt"
echo "checks done at $(elapsed) s"
for i in 5 4; do
  CUTE_KERNELS_BENCH_SHAPES=$i timeout 70 python -m cute_kernels.bench nvfp4_gemm \
    --out "$OUT/gemm$i" > "$OUT/bench-gemm$i.log" 2>&1
  echo "gemm shape $i exit $? at $(elapsed) s"
done
grep -h -E "permuted M=" "$OUT"/bench-gemm*.log | cut -c1-60,75-210
