#!/usr/bin/env bash
# Session 53 (~100 s): tools/pieces_epilogue_probe.py at 1024x7168 M = 512 / 1024 with the
# fused "pieces" route's PDL variants (trigger; trigger + spread pass).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session53_pieces_pdl.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pieces_epilogue_probe 200 0 1
report_warm
run_points pieces_epilogue_probe 150 0 1
echo "done after $(elapsed) s"
