#!/usr/bin/env bash
# tools/near_miss_probe.py: its four parts compiled in parallel, then timed one after another.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session19_near_miss.sh   (~300 s)
source "$(dirname "$0")/../device_common.sh"
warm_then_run near_miss_probe 4 280
echo "done after $(elapsed) s"
