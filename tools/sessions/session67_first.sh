#!/usr/bin/env bash
# Session 67 call 1 (~350 s, prepared in session 66): the fitted-tile GPU tests (the fused
# kernel on steps of 16: 144 / 176 / 208 / 240 tokens, untried on the GPU) and the files of the
# tests session 66's call 5 did not reach (107 tests), beside the warm-ups; then
# tools/fused_steps_probe.py's 10 points (the fused op's fitted tiles in steps of 16 against
# 32, the pair, cuBLAS + silu).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session67_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_steps_probe 300 0,1,2 3,4,5 6,7 8,9
gpu_tests 300 /tmp/logs/t-fitted.log tests/test_fitted_tiles.py &
# the 48 GPU tests session 66's call 5 did not reach in its time limit
gpu_tests 300 /tmp/logs/t-unreached.log tests/test_gdn_split.py \
  tests/test_gate_up_weight.py::test_cuda_matches_cpu \
  "tests/test_swiglu_quant_swapped.py::test_swapped_kernel_matches_reference" &
report_warm
for log in /tmp/logs/t-fitted.log /tmp/logs/t-unreached.log; do
  tail -1 "$log"; grep -E "^(FAILED|ERROR)" "$log" | head; cp "$log" "$OUT/"
done
run_points fused_steps_probe 200 $(seq -s, 0 9)
echo "done after $(elapsed) s"
