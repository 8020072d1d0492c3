#!/usr/bin/env bash
# Session 62 call 2 (~150 s after call 1, whose warm-up compiled these): the plain
# `nvfp4_gemm` in lanes of 32 row tiles, tools/plain_lanes_probe.py at 4096x7168 M = 1100 /
# 1500 (pure stream-K) and 2100 / 2500 / 3500 / 4500 (the hybrid), both activations: the plan,
# the 256-token stream-K forced on plain ranges and in lanes, cuBLAS beside. If lanes win,
# switch PLAIN_STREAM_K_LANES on (and decide lanes against the hybrid).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session62_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_lanes_probe 300 0 1 2 3 4 5
report_warm
run_points plain_lanes_probe 200 0 1 2 3 4 5
echo "done after $(elapsed) s"
