#!/usr/bin/env bash
# Session 28, call 7 (~120 s): tools/w4a16_order_probe.py at 12 / 16 bf16 tokens (points
# 12..15): the public small-M kernel against the wgmma kernel in the byte order.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_w4a16_narrow.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_order_probe 150 12 13 14 15
wait
echo "warm-up done after $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=12,13,14,15 timeout 120 python tools/w4a16_order_probe.py 2>&1 | tee "$OUT/w4a16_narrow.log"
echo "done after $(elapsed) s"
