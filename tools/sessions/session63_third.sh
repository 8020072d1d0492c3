#!/usr/bin/env bash
# Session 63 call 3 (~330 s, the device time left): the rest of tools/plain_vs_cublas_sweep.py
# (points 24..41: 9216x7168, 4096x7168, 7168x2048 at 300..3000 tokens), cut by its timeout in
# call 1. One warm-up process per shape, then the timed run.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session63_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_vs_cublas_sweep 120 24,25,26,27,28,29 30,31,32,33,34,35 36,37,38,39,40,41
report_warm
run_points plain_vs_cublas_sweep 200 $(seq -s, 24 41)
echo "done after $(elapsed) s"
