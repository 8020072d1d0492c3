#!/usr/bin/env bash
# Session 20's probe call: tools/stages_probe.py (twelve points) and
# tools/small_weights_probe.py (four) compiled in parallel, one warm-up process per point, then
# timed one after the other; logs in $OUT/stages_probe.log and $OUT/small_weights_probe.log.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session20_probes.sh   (~450 s)
source "$(dirname "$0")/device_common.sh"
warm() {
  local script=$1 points=$2 i
  for ((i = 0; i < points; i++)); do
    CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 \
      python "tools/$script.py" > "/tmp/logs/warm-$script$i.log" 2>&1 &
  done
}
warm stages_probe 12
warm small_weights_probe 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 120 python tools/small_weights_probe.py 2>&1 | tee "$OUT/small_weights_probe.log"
timeout $(( 590 - $(elapsed) )) python tools/stages_probe.py 2>&1 | tee "$OUT/stages_probe.log"
echo "done after $(elapsed) s"
