#!/usr/bin/env bash
# Session 69 call 6 (~220 s): tools/fused_gaps_probe.py points 28..30 (FUSED_WHOLE_128_MIN_WAVES
# and FUSED_WHOLE_128_PAST_STREAM_K where unmeasured, against the route before), warmed up side
# by side with the GPU tests of tests/test_fitted_tiles.py on the rules as landed.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_sixth.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 6 170 tests/test_fitted_tiles.py &
warm_points fused_gaps_probe 150 28 29 30
report_warm "warm-up + tests"
run_points fused_gaps_probe 80 28,29,30
echo "done after $(elapsed) s"
