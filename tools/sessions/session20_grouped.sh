#!/usr/bin/env bash
# tools/grouped_stages_probe.py: its eight points compiled in parallel, then timed.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session20_grouped.sh   (~200 s)
source "$(dirname "$0")/../device_common.sh"
warm_points grouped_stages_probe "${WARM_S:-100}" $(seq 0 7)
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout ${RUN_S:-110} python tools/grouped_stages_probe.py 2>&1 | tee "$OUT/grouped_stages_probe.log"
echo "done after $(elapsed) s"
