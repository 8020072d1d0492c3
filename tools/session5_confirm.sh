#!/usr/bin/env bash
# Session 5, confirmation: tools/m1_probe.py on the committed small-M kernels (cache filled
# by one warm-up process per shape first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session5_confirm.sh
source "$(dirname "$0")/device_common.sh"
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 python tools/m1_probe.py > /tmp/logs/warm-m1$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 120 python tools/m1_probe.py 2>&1 | tee "$OUT/m1_probe.log"
echo "done after $(elapsed) s"
