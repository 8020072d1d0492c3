#!/usr/bin/env bash
# Session 65 call 1 (~420 s, prepared in session 64): tools/plain_vs_cublas_sweep.py on its
# four big shapes (points 0..23: 7168x18432, 5120x17408, 36864x7168, 34816x5120 at 300 / 600 /
# 1100 / 1700 / 2100 / 3000 tokens) on session 64's plain rules; tools/small_m_plans_probe.py
# points 18..22 (36864x7168 / 34816x5120 at 260..384 tokens: whole against stream-K 128-token
# tiles). Call 2: the sweep's points 24..41.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_vs_cublas_sweep 300 0,1,2,3,4,5 6,7,8,9,10,11 12,13,14,15,16,17 \
  18,19,20,21,22,23
warm_points small_m_plans_probe 300 18,19,20 21,22
report_warm
run_points plain_vs_cublas_sweep 280 $(seq -s, 0 23)
run_points small_m_plans_probe 100 18,19,20,21,22
echo "done after $(elapsed) s"
