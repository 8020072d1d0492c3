#!/usr/bin/env bash
# Session 62 call 4 (~200 s): tools/tile128_lanes_probe.py: 4096x7168 at 1100 / 1200 / 1700 /
# 2100 tokens, the plain GEMM's plan (256-token stream-K in lanes) against the 128-token
# stream-K on plain ranges and in lanes, the fused op's public route and 128-token lanes;
# 1024x7168 W4A16 at 1300 / 1350 on the 256-token plans.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session62_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points tile128_lanes_probe 300 ${POINTS:-0 1 2 3 4 5}
report_warm
run_points tile128_lanes_probe 250 ${POINTS:-0 1 2 3 4 5}
echo "done after $(elapsed) s"
