#!/usr/bin/env bash
# Session 28, call 2 (~200 s): tools/packed_order_probe.py (what a byte K order for packed
# weight bytes would buy the wgmma kernel) at its 8 points, warmed in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_order.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run packed_order_probe 8 240
echo "done after $(elapsed) s"
