#!/usr/bin/env bash
# tools/stages_probe.py: its twelve points compiled in parallel, then timed one after another.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session20_stages.sh   (~400 s)
source "$(dirname "$0")/../device_common.sh"
warm_then_run stages_probe 12 280
echo "done after $(elapsed) s"
