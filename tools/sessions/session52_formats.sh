#!/usr/bin/env bash
# Session 52 (~250 s): the fused op at M >= 256 on NVFP4 and on bf16 activations against
# cuBLAS + silu (tools/fused_activation_format_probe.py, ten points).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session52_formats.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="0 1 2 3 4 5 6 7 8 9"
warm_points fused_activation_format_probe 200 $POINTS
report_warm
run_points fused_activation_format_probe 300 $POINTS
echo "done after $(elapsed) s"
