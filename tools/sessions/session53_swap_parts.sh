#!/usr/bin/env bash
# Session 53 (~200 s): tools/swapped_roles_probe.py with CUTE_KERNELS_PROBE_PARTS=1 at
# 1024x7168 M = 4096 / 16384 / 2048 (points 0-2): each GEMM without its pass, and both on whole
# 128-token tiles.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session53_swap_parts.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_PARTS=1
POINTS="0 1 2"
warm_points swapped_roles_probe 300 $POINTS
report_warm
run_points swapped_roles_probe 280 $POINTS
echo "done after $(elapsed) s"
