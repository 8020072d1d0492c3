#!/usr/bin/env bash
# tools/near_miss_probe.py: its four parts compiled in parallel, then timed one after another.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session19_near_miss.sh   (~300 s)
source "$(dirname "$0")/device_common.sh"
for i in 0 1 2 3; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/near_miss_probe.py \
    > "/tmp/logs/warm-near$i.log" 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-near*.log | tail -30
timeout $(( 590 - $(elapsed) )) python tools/near_miss_probe.py 2>&1 | tee "$OUT/near_miss.log"
echo "done after $(elapsed) s"
