#!/usr/bin/env bash
# Session 29, call 6 (~150 s): W4A16 at 4..8 tokens. The small kernel's register path runs
# there (call 3's suite: 36864x7168 M = 8 62.6 us, 7168x18432 37.5) while the wgmma kernel's
# 16-token tiles took 52.6 / 33.0 at M = 16: does it win below 9 tokens too, on packed bytes
# (PAIRS) and permuted words? tools/w4a16_order_probe.py points 16..22 (call 7: FIRST=23
# LAST=30, the other shapes at 4 tokens, 36864x7168 at 3, 4096x7168 at 8, 9216x7168 at 6).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_order_probe 150 $(seq ${FIRST:-16} ${LAST:-22})
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=$(seq -s, ${FIRST:-16} ${LAST:-22}) timeout 200 python tools/w4a16_order_probe.py \
  2>&1 | tee "$OUT/w4a16_small_m.log"
echo "done after $(elapsed) s"
