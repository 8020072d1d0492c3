#!/usr/bin/env bash
# Prepared in session 23 (no device time left) for session 24: tools/split_points_probe.py at
# its 8 points (the fused op's fp32 split route against the fused kernel's own launches with
# the quantizer warps, and the unfused pair), one compile process per point first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session24_split_points.sh   (~200 s)
source "$(dirname "$0")/device_common.sh"
warm_points split_points_probe 150 0 1 2 3 4 5 6 7
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 200 python tools/split_points_probe.py 2>&1 | tee "$OUT/split_points.log"
echo "done after $(elapsed) s"
