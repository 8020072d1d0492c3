#!/usr/bin/env bash
# Prepared in session 30 (~300 s): tools/split_fixup_probe.py points 14..19, issue 5's
# M = 8..32 targets on the big weights. Their plans are stream-K on the default grid, where
# every CTA holds two pieces of two tiles; session 30 measured the aligned form (every tile
# in the same pieces, a CTA one piece) 1.5-2.6 us faster on the small weights. "public" is
# the route the public function takes (the small-M kernel on 9216x7168 / 5120x17408).
# If a "p{s}c{c}" variant beats "public", give plain_plan / wgmma_from_9_tokens the pieces.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points split_fixup_probe 280 $(seq 14 19)
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=$(seq -s, 14 19) timeout 250 python tools/split_fixup_probe.py 2>&1 \
  | tee "$OUT/split_fixup_narrow.log"
echo "done after $(elapsed) s"
