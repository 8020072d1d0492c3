#!/usr/bin/env bash
# Session 81's second call (~120 s, an H200 preferred): the probe-only 8-token tiles (wgmma
# N = 8) through their GPU tests, then tools/tile8_probe.py (the stream-K launch alone at 4 and
# 8 tokens, 16- against 8-token tiles, one and two K groups: issue 5's W4A16 M = 4 / 8 rows).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_second.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 "$OUT/t-tile8.log" tests/test_nvfp4_gemm_large_m.py -k eight_token &
for i in 0 1 2 3; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 \
    python tools/tile8_probe.py > /tmp/logs/warm-tile8$i.log 2>&1 &
done
report_warm "tests and warm-up"
tail -1 "$OUT/t-tile8.log"
timeout 150 python tools/tile8_probe.py 2>&1 | tee "$OUT/tile8_probe.log"
echo "done after $(elapsed) s"
