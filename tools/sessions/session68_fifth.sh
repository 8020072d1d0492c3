#!/usr/bin/env bash
# Session 68 call 5 (~150 s): tools/fitted_past_1024_probe.py points 68..73, the hybrid rule
# on fitted widths as landed (FITTED_HYBRID, FITTED_HYBRID_MAX_FILL) against whole fitted tiles
# and cuBLAS, at six points drawn from those it changes.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session68_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_past_1024_probe 100 $(seq 68 73)
report_warm
run_points fitted_past_1024_probe 150 $(seq -s, 68 73)
echo "done after $(elapsed) s"
