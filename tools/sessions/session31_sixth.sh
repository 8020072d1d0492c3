#!/usr/bin/env bash
# Session 31's sixth call (~120 s): tools/split_fixup_probe.py at the fused 1024x7168 points of
# the wide pieces (M = 520 / 576 / 960 / 1024, points 28..30 and 12): stream-K on the default
# grid with 128-token tiles ("sk") against the pieces ("plan"), as at M = 640 (29.54 / 30.75).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points split_fixup_probe 200 12 28 29 30
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=12,28,29,30 timeout 200 python tools/split_fixup_probe.py 2>&1 \
  | tee "$OUT/split_fixup_probe.log"
echo "done after $(elapsed) s"
