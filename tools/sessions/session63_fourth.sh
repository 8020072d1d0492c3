#!/usr/bin/env bash
# Session 63 call 4 (~260 s, the device time left): the rest of tools/fused_vs_cublas_sweep.py
# (points 9..29), cut by its timeout in call 2: the pair risk at 4096x7168.
source "$(dirname "$0")/../device_common.sh"
warm_points fused_vs_cublas_sweep 100 9,10,11 12,13,14,15,16,17 18,19,20,21,22,23 24,25,26,27,28,29
report_warm
run_points fused_vs_cublas_sweep 150 $(seq -s, 12 29) 9,10,11
echo "done after $(elapsed) s"
