#!/usr/bin/env bash
# Session 67 call 1 (~330 s, prepared in session 66): the fitted-tile GPU tests (the fused
# kernel on steps of 16: 144 / 176 / 208 / 240 tokens, untried on the GPU) beside the
# warm-ups; then tools/fused_steps_probe.py's 10 points (the fused op's fitted tiles in steps of
# 16 against 32, the pair, cuBLAS + silu).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session67_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_steps_probe 300 0,1,2 3,4,5 6,7 8,9
gpu_tests 300 /tmp/logs/t-fitted.log tests/test_fitted_tiles.py &
report_warm
tail -3 /tmp/logs/t-fitted.log; grep -E "^(FAILED|ERROR)" /tmp/logs/t-fitted.log | head
cp /tmp/logs/t-fitted.log "$OUT/"
run_points fused_steps_probe 200 $(seq -s, 0 9)
echo "done after $(elapsed) s"
