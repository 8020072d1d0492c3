#!/usr/bin/env bash
# Session 80's fourth call (~120 s, any card): the card calibration of the K groups rule
# (tools/k_groups_rule_probe.py points 6 and 7: 9216x7168 M = 32, where the H200 had two
# groups 3.5% slower in session 18), and W4A16 5120x17408 M = 1024 in place against the copy
# route (tools/w4a16_in_place_probe.py point 13).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_fourth.sh
source "$(dirname "$0")/../device_common.sh"
for i in 6 7; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/k_groups_rule_probe.py > /tmp/logs/warm-rule$i.log 2>&1 &
done
(CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=13 timeout 150 \
  python tools/w4a16_in_place_probe.py > /tmp/logs/warm-inplace.log 2>&1) &
report_warm
CUTE_KERNELS_BENCH_SHAPES=6,7 timeout 100 python tools/k_groups_rule_probe.py 2>&1 \
  | tee "$OUT/k_groups_rule_probe.log"
CUTE_KERNELS_BENCH_SHAPES=13 timeout 120 python tools/w4a16_in_place_probe.py 2>&1 \
  | tee "$OUT/w4a16_in_place_probe.log"
echo "done after $(elapsed) s"
