#!/usr/bin/env bash
# Session 61 call 1 (~350 s, prepared in session 60): every GPU test on session 60's W4A16
# tail rule (call 4 ran the fused route tests only: 471), then
# tools/stream_k_stretch_probe.py points 11-13 (1024x7168 M = 4608 / 5000 / 5120: W4A16's
# 256-token stream-K took 150 us at 5000 against 108 for cuBLAS + silu; every launch form).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session61_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points stream_k_stretch_probe 300 11 12 13
all_gpu_tests 14 360
report_warm
run_points stream_k_stretch_probe 200 11 12 13
echo "done after $(elapsed) s"
