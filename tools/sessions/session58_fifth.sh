#!/usr/bin/env bash
# Session 58 call 5 (~150 s): tools/stream_k_stretch_probe.py points 4 / 5 (1024x7168 M = 1024
# / 1536: 256-token tiles in two / four K pieces beside the routes, W4A16 0.94x at 1024, W4A4
# 0.87x at 1536).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session58_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_stretch_probe 250 4 5
report_warm
run_points stream_k_stretch_probe 150 4 5
echo "done after $(elapsed) s"
