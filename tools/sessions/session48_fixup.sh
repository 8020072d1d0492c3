#!/usr/bin/env bash
# Session 48, first call (~200 s): tools/fixup_cost_probe.py at its six stream-K points (issue
# 5's M = 16..64 on the big weights): the public route against the same launches without the
# activation pass, without the stream-K fix-up, and with every main loop cut to one k-tile.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session48_fixup.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fixup_cost_probe 200 0 1 2 3 4 5
report_warm
run_points fixup_cost_probe 300 0 1 2 3 4 5
echo "done after $(elapsed) s"
