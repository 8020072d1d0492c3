#!/usr/bin/env bash
# tools/l2_prefetch_probe.py: every variant warmed per shape in parallel (its own cache folder),
# then timed one after another.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session8_l2.sh [variants...]
source "$(dirname "$0")/device_common.sh"
variants=${*:-0 1 2 3 4}
for v in $variants; do
  for i in 0 1 2 3 4 5 6; do
    L2_VARIANT=$v CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/l2_prefetch_probe.py > /tmp/logs/warm-l2$v$i.log 2>&1 &
  done
  L2_VARIANT=$v L2_FUSED_ONLY=1 CUTE_KERNELS_BENCH_WARM=1 timeout 280 python tools/l2_prefetch_probe.py > /tmp/logs/warm-l2$v-f.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-l2*.log | tail -10
for v in $variants; do
  L2_VARIANT=$v timeout 100 python tools/l2_prefetch_probe.py 2>&1 | tee -a "$OUT/l2.log"
done
echo "done after $(elapsed) s"
