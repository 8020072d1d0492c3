#!/usr/bin/env bash
# Session 65 call 2 (~300 s): tools/plain_vs_cublas_sweep.py points 24..41 (9216x7168,
# 4096x7168, 7168x2048 at 300 / 600 / 1100 / 1700 / 2100 / 3000 tokens);
# tools/short_k_parts_probe.py (7168x2048 at 300 / 450 / 600 tokens: plan, whole 256 / 128
# and stream-K 128, each with and without its activation pass; new in session 64, not yet run).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_vs_cublas_sweep 300 24,25,26,27,28,29 30,31,32,33,34,35 36,37,38,39,40,41
warm_points short_k_parts_probe 200 0,1,2
report_warm
run_points plain_vs_cublas_sweep 200 $(seq -s, 24 41)
run_points short_k_parts_probe 100 0,1,2
echo "done after $(elapsed) s"
