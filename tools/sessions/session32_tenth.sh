#!/usr/bin/env bash
# Session 32's tenth call (~300 s): the stream-K fix-up's last CTA adds its own piece from
# registers (two pieces, or holding the first). GPU tests of the stream-K / split / pieces
# routes (plain and fused), then split_fixup_probe points 0, 1, 6 (4096x7168 M = 32 / 64,
# 7168x2048 M = 64; session 31: plan 16.35 / 16.33 / 11.20 us, t64p2 at the last 12.28).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session32_tenth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points split_fixup_probe 200 0 1 6
gpu_tests 220 /tmp/logs/t-sk.log tests/test_nvfp4_gemm_large_m.py \
  tests/test_nvfp4_gemm_swiglu_quant.py -k "stream_k or split or pieces" &
wait
test_summary | tee "$OUT/checks.txt"
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0,1,6 timeout 90 python tools/split_fixup_probe.py 2>&1 \
  | tee "$OUT/split_fixup_probe.log"
echo "done after $(elapsed) s"
