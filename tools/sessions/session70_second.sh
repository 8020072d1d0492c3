#!/usr/bin/env bash
# Session 70 call 2 (~300 s, prepared in session 69): tools/fitted_model_probe.py points 0..9,
# nvfp4_gemm on every launch fitted_tiles' model weighs at ten K = 7168 points (9216, 36864
# and 4096 rows), printed beside the model's estimates: the data for a refit of
# FITTED_PIECE_UNITS on K = 7168 (the next-steps item with 47 zeros, lead 0).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session70_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_model_probe 200 $(seq 0 9)
report_warm
run_points fitted_model_probe 200 $(seq -s, 0 9)
echo "done after $(elapsed) s"
