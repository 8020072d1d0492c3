#!/usr/bin/env bash
# Session 65 call 2 (~250 s): tools/plain_vs_cublas_sweep.py points 24..41 (9216x7168,
# 4096x7168, 7168x2048 at 300 / 600 / 1100 / 1700 / 2100 / 3000 tokens).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_vs_cublas_sweep 300 24,25,26,27,28,29 30,31,32,33,34,35 36,37,38,39,40,41
report_warm
run_points plain_vs_cublas_sweep 200 $(seq -s, 24 41)
echo "done after $(elapsed) s"
