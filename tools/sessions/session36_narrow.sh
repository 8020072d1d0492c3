#!/usr/bin/env bash
# Session 36's eighth call (~150 s): tools/narrow_spread_probe.py (the triggered, spread wgmma
# launch against the small kernel at 9..16 tokens; the spread pass on stream-K plans), 10
# points compiled in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_narrow.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run narrow_spread_probe 10 200
echo "done after $(elapsed) s"
