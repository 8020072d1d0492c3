#!/usr/bin/env bash
# Session 26, call 6 (~150 s): tools/pass_share_probe.py (what the activations' bf16 pass
# costs the public ops at the open small-shape points).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session26_pass.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pass_share_probe 100 0 1 2 3 4 5 6
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
timeout 100 python tools/pass_share_probe.py 2>&1 | tee "$OUT/pass_share.log"
echo "done after $(elapsed) s"
