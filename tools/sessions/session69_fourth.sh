#!/usr/bin/env bash
# Session 69 call 4 (~300 s): FUSED_WHOLE_128_MIN_WAVES (the fused op's best fitted launch in
# place of whole 128-token tiles from two waves; measured at 9216x7168 M = 600..880 in calls 2
# and 3) where no point was measured: tools/fused_gaps_probe.py points 17..24 against the route
# before. Warm-ups side by side with the GPU tests of tests/test_fitted_tiles.py and
# tests/test_stream_k_lanes.py (the fused routes' tests) on this session's rules.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_fourth.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 6 200 tests/test_fitted_tiles.py tests/test_stream_k_lanes.py &
warm_points fused_gaps_probe 200 $(seq 17 24)
report_warm "warm-up + tests"
run_points fused_gaps_probe 240 $(seq -s, 17 24)
echo "done after $(elapsed) s"
