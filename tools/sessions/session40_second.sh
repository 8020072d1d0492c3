#!/usr/bin/env bash
# Session 40's second call (prepared in session 39, ~250 s): tools/spread_ctas_probe.py, where
# the spread activation pass puts its CTAs at the stream-K 16-token points (the pass costs
# 2.4 us of 7168x18432 M = 16, issue 5's M <= 16 bar ~1.1 us away), all points compiled first;
# then memcheck on tools/sanitize_probe.py.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session40_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run spread_ctas_probe 6 200
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200)
tail -2 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
echo "done after $(elapsed) s"
