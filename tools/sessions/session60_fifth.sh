#!/usr/bin/env bash
# Session 60 call 5 (~60 s, what the budget leaves): "w16_p641" (four K pieces of 256-token
# tiles from 641 tokens, in place) against the public route at 1024x7168 M = 700 / 660
# (tools/w4a16_tail_probe.py points 0 / 5, those forms only).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session60_fifth.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=w16,w16_p641,cublas_silu
warm_points w4a16_tail_probe 100 0 5
report_warm
run_points w4a16_tail_probe 40 0 5
echo "done after $(elapsed) s"
