#!/usr/bin/env bash
# Session 55 (~380 s): every GPU test with the scattered K pieces on (256-token tile cases
# added), then tools/pieces_tile_probe.py (1024x7168 at M = 512 / 1024 / 2048: 128- against
# 256-token tiles in twice the pieces, kernels alone and the public op).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session55_final.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pieces_tile_probe 280 0 1 2
all_gpu_tests 12 310
report_warm
run_points pieces_tile_probe 100 0 1 2
echo "done after $(elapsed) s"
