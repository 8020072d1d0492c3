#!/usr/bin/env bash
# Session 38's second call (prepared in session 37, ~400 s): the PDL trigger and the spread
# pass past 512 tokens (session 36's lead b: tools/pass_spread_probe.py points 5 and 18..25,
# the four (trigger, spread) forms and the public route), and the spread pass's grid at
# K = 2048 (lead a: tools/pass_shape_probe.py's 7168x2048 points 4..7); all compiled first,
# beside compute-sanitizer memcheck on tools/sanitize_probe.py (now with the spread passes,
# the reordering copy's among them).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_second.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 220) &
warm_points pass_spread_probe 200 5 $(seq 18 25)
warm_points pass_shape_probe 200 4 5 6 7
wait
echo "warm-up + memcheck done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log \
  | tail
tail -2 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
CUTE_KERNELS_BENCH_SHAPES=5,18,19,20,21,22,23,24,25 timeout 200 \
  python tools/pass_spread_probe.py 2>&1 | tee "$OUT/pass_spread_probe.log"
CUTE_KERNELS_BENCH_SHAPES=4,5,6,7 timeout 80 python tools/pass_shape_probe.py 2>&1 \
  | tee "$OUT/pass_shape_probe.log"
echo "done after $(elapsed) s"
