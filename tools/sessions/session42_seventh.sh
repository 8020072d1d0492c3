#!/usr/bin/env bash
# Session 42's seventh call (~150 s): tools/m1_pdl_probe.py, the plain small kernel at one
# token with PDL (weights before the wait; trigger after the main loop or at the start).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_seventh.sh
source "$(dirname "$0")/../device_common.sh"
warm_points m1_pdl_probe 200 0 1 2 3 4 5
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
timeout 200 python tools/m1_pdl_probe.py 2>&1 | tee "$OUT/m1_pdl_probe.log"
echo "done after $(elapsed) s"
