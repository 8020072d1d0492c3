#!/usr/bin/env bash
# Session 89: the one-token launches with their weights read from L2 (``PROBE_L2=1``: one
# weight copy; 9216x7168's 37 MB fit an H100's 50 MB L2), where an H100 reads faster than an
# H200's DRAM and so shows what bounds the kernel past DRAM (from DRAM the H100's one-token
# GEMM reads at its copy rate, which hides it): tools/lane_columns_probe.py points 0 and 2
# (public against lane columns, plain and fused 9216x7168) and tools/balanced_probe.py points
# 0 and 4 (the balanced forms there). Either card (~120 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_l2proxy.sh
source "$(dirname "$0")/../device_common.sh"
export PROBE_L2=1
warm_points lane_columns_probe 240 0 2
warm_points balanced_probe 240 0 4
report_warm
run_points lane_columns_probe 120 0 2
run_points balanced_probe 120 0 4
echo "done after $(elapsed) s"
