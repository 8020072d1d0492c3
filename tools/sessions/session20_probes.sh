#!/usr/bin/env bash
# Session 20's probe call: tools/stages_probe.py (twelve points) and
# tools/small_weights_probe.py (four) compiled in parallel, one warm-up process per point, then
# timed one after the other; logs in $OUT/stages_probe.log and $OUT/small_weights_probe.log.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session20_probes.sh   (~450 s)
source "$(dirname "$0")/../device_common.sh"
warm_points stages_probe 280 $(seq 0 11)
warm_points small_weights_probe 280 0 1 2 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 120 python tools/small_weights_probe.py 2>&1 | tee "$OUT/small_weights_probe.log"
timeout $(( 590 - $(elapsed) )) python tools/stages_probe.py 2>&1 | tee "$OUT/stages_probe.log"
echo "done after $(elapsed) s"
