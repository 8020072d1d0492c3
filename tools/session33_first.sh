#!/usr/bin/env bash
# Session 33's first call (~250 s): memcheck and racecheck on tools/sanitize_probe.py (its
# stream-K and split-K launches take session 32's fix-up, the last CTA's own piece added from
# registers; it was tested on the GPU but not run under the sanitizers).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session33_first.sh
source "$(dirname "$0")/device_common.sh"
timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1  # compiles, warm cache
sanitize memcheck 200 &
sanitize racecheck 230 &
wait
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
echo "done after $(elapsed) s"
