#!/usr/bin/env bash
# Session 39's second call (prepared in session 38, ~280 s): compute-sanitizer racecheck on
# tools/sanitize_probe.py, whose last section runs the wgmma kernel decoding its NVFP4
# activations in the kernel (a new writer of shared memory: the producer warpgroup's converter
# warps, read by the consumers' wgmma), after session39_first.sh's memcheck.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session39_second.sh
source "$(dirname "$0")/../device_common.sh"
timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
tail -2 /tmp/logs/probe.log
sanitize racecheck 240
cat "$OUT/racecheck.txt"
echo "done after $(elapsed) s"
