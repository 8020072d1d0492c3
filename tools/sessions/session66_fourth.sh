#!/usr/bin/env bash
# Session 66 call 4 (~430 s): the GPU tests of the plans that moved (fitted tiles in steps of 16
# from 129 tokens; packed bytes' one stream-K tile) beside the warm-ups; then
# tools/fitted_steps_probe.py (20 points: the new rule against session 65's and cuBLAS) and
# tools/fused_fitted_probe.py points 8..14 (4096x7168 whole 128-token tiles in part of a wave
# against the 128-token stream-K; the fused kernel's fitted tiles under 257 tokens).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session66_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fitted_steps_probe 300 0,1,2,3,4 5,6,7,8,9 10,11,12,13,14 15,16,17,18,19
warm_points fused_fitted_probe 300 8,9,10,11 12,13,14
gpu_tests 300 /tmp/logs/t-moved.log tests/test_fitted_tiles.py tests/test_nvfp4_gemm.py \
  -k "fitted or packed" &
report_warm
tail -3 /tmp/logs/t-moved.log; grep -E "^(FAILED|ERROR)" /tmp/logs/t-moved.log | head
cp /tmp/logs/t-moved.log "$OUT/"
run_points fitted_steps_probe 200 $(seq -s, 0 19)
run_points fused_fitted_probe 120 $(seq -s, 8 14)
echo "done after $(elapsed) s"
