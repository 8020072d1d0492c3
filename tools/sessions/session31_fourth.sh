#!/usr/bin/env bash
# Session 31's fourth call (~150 s): tools/split_fixup_probe.py, its activations now padded to
# whole token tiles as the public functions pass them (the third call's M = 160 / 192 read
# past M), at the wide pieces' points with a token tail and 1024x7168 M = 640, against whole
# 64-token tiles ("w64", the launch before wide_pieces).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points split_fixup_probe 200 20 21 22 26 27
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=20,21,22,26,27 timeout 200 python tools/split_fixup_probe.py 2>&1 \
  | tee "$OUT/split_fixup_probe.log"
echo "done after $(elapsed) s"
