#!/usr/bin/env bash
# Session 22's first device call: tools/sessions/session22_first.sh (fused tile-config tests, both
# suites, near_miss_probe parts 17 / 18), with tools/wave_fill_probe.py's kernels compiled in
# the background meanwhile (into the kernel cache that the next call on a warm machine reuses),
# then the probe itself if time is left.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_call1.sh   (~450 s)
source "$(dirname "$0")/../device_common.sh"
warm_points wave_fill_probe 300 0 1 2 3 4 5
bash "$(dirname "$0")/session22_first.sh"
wait
left=$(( 590 - $(elapsed) ))
[ "$left" -gt 60 ] && timeout "$left" python tools/wave_fill_probe.py 2>&1 | tee "$OUT/wave_fill_probe.log"
echo "call done after $(elapsed) s"
