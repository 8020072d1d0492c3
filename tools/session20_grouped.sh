#!/usr/bin/env bash
# tools/grouped_stages_probe.py: its eight points compiled in parallel, then timed.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session20_grouped.sh   (~200 s)
source "$(dirname "$0")/device_common.sh"
for ((i = 0; i < 8; i++)); do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout ${WARM_S:-100} \
    python tools/grouped_stages_probe.py > "/tmp/logs/warm-grouped$i.log" 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout ${RUN_S:-110} python tools/grouped_stages_probe.py 2>&1 | tee "$OUT/grouped_stages_probe.log"
echo "done after $(elapsed) s"
