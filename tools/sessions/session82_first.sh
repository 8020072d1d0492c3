#!/usr/bin/env bash
# Session 82's first call (~250 s on an H100, ~590 s on an H200). Either card: the 8-token
# tiles' GPU tests (the new PAIRS case: packed bytes; the fused kernel's, tests/
# test_fused_tile8.py) and tools/tile8_rule_probe.py (the public op, permuted words and packed
# bytes; on an H100 only its packed points, indices 6-11: if they win and agree, set
# large_m_plans.PACKED_TILE_8), then tools/fused_tile8_probe.py (the fused op's narrow route
# on 8-token tiles: if the tests pass and it wins, NVFP4GemmSwigluQuantLargeM.TILE_8 on).
# On an H200 also the early release (M = 16), the stage depth at 16 tokens, the fused
# one-token op at (12, 2), and the nvfp4_gemm suite at 9216x7168 and 5120x17408 with the
# targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_first.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
gpu_tests 250 "$OUT/t-tile8.log" tests/test_nvfp4_gemm_large_m.py -k eight_token &
gpu_tests 250 "$OUT/t-fused-tile8.log" tests/test_fused_tile8.py &
warm_points fused_tile8_probe 250 0 1 2 3
if [ "$h200" = 1 ]; then
  points="0 1 2 3 4 5 6 7 8 9 10 11"
  warm_points early_release_probe 200 0 1 2
  warm_points stage_depth_probe 200 0 1
  warm_points balanced_probe 200 4 8 5
  warm_suite nvfp4_gemm 4 1
else
  points="6 7 8 9 10 11"
fi
# shellcheck disable=SC2086
warm_points tile8_rule_probe 250 $points
report_warm "tests and warm-up"
for f in "$OUT/t-tile8.log" "$OUT/t-fused-tile8.log"; do
  tail -n 1 "$f"; grep -E "^FAILED|^E  " "$f" | head -8
done
# shellcheck disable=SC2086
run_points tile8_rule_probe 150 $points
echo "rule probe done at $(elapsed) s"
run_points fused_tile8_probe 120 0 1 2 3
if [ "$h200" = 1 ]; then
  run_points early_release_probe 60 0 1 2
  run_points stage_depth_probe 90 0 1
  run_points balanced_probe 90 4 8 5
  suite_targets nvfp4_gemm "1|4|8|16|32|64|1024" 4 1
fi
echo "done after $(elapsed) s"
