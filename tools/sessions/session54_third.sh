#!/usr/bin/env bash
# Session 54 (~400 s): every GPU test with the swapped route on (12 shards side by side), then
# tools/swapped_fused_probe.py at 1024x7168 M = 3072 / 4000 / 4096 / 16384 (the public op on
# the new rule; the quantizer warps).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session54_third.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="3 9 0 1"
warm_points swapped_fused_probe 250 $POINTS
all_gpu_tests 12 300
report_warm
sanitize_script swapped_sanitize_probe
run_points swapped_fused_probe 200 $POINTS
echo "done after $(elapsed) s"
