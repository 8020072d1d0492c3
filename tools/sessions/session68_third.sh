#!/usr/bin/env bash
# Session 68 call 3 (~300 s, prepared in session 67): tools/fitted_hybrid_probe.py's 8 points:
# stream-K fitted tiles past 1024 tokens (session 67 call 3's four losses and four wins)
# against today's whole tiles, the data-parallel + stream-K hybrid and stream-K in lanes on the
# same width (their fp64 checks first). Where one wins, the model can weigh it past
# FITTED_STREAM_K_MAX_M. (test_fitted_tile_configs_agree's hybrid and lanes cases run in
# session68_first.sh's suite.)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session68_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_hybrid_probe 200 0,1 2,3 4,5 6,7
report_warm
run_points fitted_hybrid_probe 250 $(seq -s, 0 7)
echo "done after $(elapsed) s"
