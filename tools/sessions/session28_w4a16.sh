#!/usr/bin/env bash
# Session 28, call 5 (~150 s): tools/w4a16_order_probe.py (W4A16 on packed bytes: the decode
# in place against the byte K order behind a reordering copy of the activations).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_w4a16.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run w4a16_order_probe 12 200
echo "done after $(elapsed) s"
