#!/usr/bin/env bash
# Session 20: branch stage-caps (``stage_cap``: one CTA an SM takes at most 6 stages with two K
# groups a stage, 7 with 64-token tiles; from tools/stages_probe.py) against main through the
# public functions at M = 16, 32, 64 (W4A16 too), two rounds, with the large-M / fused GPU
# tests and the sanitizers on the tree.
# Prepare on the CPU (carry [".gpu", "ab_main"]):
#   rm -rf ab_main && mkdir ab_main && git archive main cute_kernels layouts | tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_stage_caps.sh   (~350 s)
source "$(dirname "$0")/device_common.sh"
export LOOP_W4A16=1
AB_POINTS=16 LOOP_MS=${LOOP_MS:-16,32,64} ab_public_large_m ab_main .
echo "done after $(elapsed) s"
