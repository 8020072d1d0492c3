#!/usr/bin/env bash
# Session 66 call 1 (~480 s, prepared in session 65): every GPU test on session 65's fitted token
# tiles (the fused op's rule, fitted_tiles.fused_fitted_route, had not run the suite), warming
# tools/fused_fitted_rule_probe.py beside; then its 17 points (the fused op with / without the
# fitted tiles, the pair, cuBLAS + silu).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session66_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_fitted_rule_probe 300 0,1,2,3,4 5,6,7,8 9,10,11,12 13,14,15,16
all_gpu_tests 14 330
report_warm
run_points fused_fitted_rule_probe 250 $(seq -s, 0 16)
echo "done after $(elapsed) s"
