#!/usr/bin/env bash
# tools/stages_probe.py: its twelve points compiled in parallel, then timed one after another.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session20_stages.sh   (~400 s)
source "$(dirname "$0")/device_common.sh"
for i in $(seq 0 11); do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python tools/stages_probe.py \
    > "/tmp/logs/warm-stages$i.log" 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-stages*.log | tail -30
timeout $(( 590 - $(elapsed) )) python tools/stages_probe.py 2>&1 | tee "$OUT/stages.log"
echo "done after $(elapsed) s"
