#!/usr/bin/env bash
# Session 26, call 2 (~150 s): tools/graph_order_probe.py at 200 and 20 calls a graph, with
# the SM clock, power and throttle reasons sampled every 50 ms alongside ($OUT/smi.csv).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session26_order.sh
source "$(dirname "$0")/../device_common.sh"
warm_points graph_order_probe 150 0 1 2 3 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
(nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
   --format=csv,noheader -lms 50 > "$OUT/smi.csv" 2>&1) &
smi=$!
for calls in 200 20; do
  CUTE_KERNELS_PROBE_CALLS=$calls timeout 200 python tools/graph_order_probe.py 2>&1 | tee -a "$OUT/graph_order.log"
done
kill $smi 2>/dev/null
echo "done after $(elapsed) s"
awk -F', ' '{print $2, $4, $6}' "$OUT/smi.csv" | sort | uniq -c | sort -rn | head -12
