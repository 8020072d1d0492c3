#!/usr/bin/env bash
# Session 50, sixth call (~350 s): every GPU test after the spread pass on 32-token stream-K
# tiles (``all_gpu_tests``), then tools/narrow_spread_probe.py at the 32-token points, where
# the public route ("public") should now match "spread".
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_final.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="10 11 12 4"
warm_points narrow_spread_probe 200 $POINTS
all_gpu_tests 12 400
run_points narrow_spread_probe 120 $POINTS
echo "done after $(elapsed) s"
