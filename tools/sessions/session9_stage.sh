#!/usr/bin/env bash
# Staged activations at M = 3..8 for the plain GEMM: in this device copy the rule is widened
# (PLAIN_X_SMEM_TOKENS 2 -> 8, PLAIN_STAGE_BYTES 48 -> 120 KB), then the plain GEMM's GPU tests
# and memcheck run on it while tools/stage_tokens_probe.py compiles; then the probe (2 against
# 8 tokens, W4A4 and W4A16, M = 4 and 8).
# (Session 9 ran it with 150 s for the tests: cut before their summary; memcheck clean; the
# probe then failed on an import, fixed since.)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session9_stage.sh
source "$(dirname "$0")/../device_common.sh"
sed -i -e 's/^PLAIN_X_SMEM_TOKENS = 2$/PLAIN_X_SMEM_TOKENS = 8/' \
       -e 's/^PLAIN_STAGE_BYTES = 48 \* 1024$/PLAIN_STAGE_BYTES = 120 * 1024/' cute_kernels/nvfp4_gemm.py
grep -n "^PLAIN_" cute_kernels/nvfp4_gemm.py
(timeout 60 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 100) &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py &
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/stage_tokens_probe.py > /tmp/logs/warm-st$i.log 2>&1 &
done
wait
tail -1 /tmp/logs/t-gemm.log; grep -E "^FAILED|^E  " /tmp/logs/t-gemm.log | head
tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 200 python tools/stage_tokens_probe.py 2>&1 | tee "$OUT/stage_tokens.log"
echo "done after $(elapsed) s"
