#!/usr/bin/env bash
# Session 39's second call (~330 s): the in-kernel activation decode with the activations'
# bytes on their own barrier (act_full), so the converter warps no longer wait for the
# weights' bytes (call 1: the decode lengthened every stage's trip; fp4 13.0 us against the
# GEMM alone's 8.6 at 4096x7168 M = 16). A first run form by form, its GPU tests, racecheck on
# tools/sanitize_probe.py (a new writer of shared memory, read by wgmma), then
# tools/pass_cost_probe.py (nine points) and tools/fused_fp4_probe.py's small-M points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session39_act_full.sh
source "$(dirname "$0")/../device_common.sh"
timeout 120 python tools/converted_act_smoke.py 2>&1 | tee "$OUT/converted_act_smoke.log"
if ! grep -q "smoke done" "$OUT/converted_act_smoke.log"; then
  echo "fp4 smoke did not finish after $(elapsed) s: stopping"; exit 1
fi
gpu_tests 250 /tmp/logs/t-fp4.log tests/test_converted_act.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize racecheck 240) &
warm_points pass_cost_probe 200 $(seq 0 8)
warm_points fused_fp4_probe 200 4 5 6 9 10 11
wait
echo "warm-up, tests and racecheck done after $(elapsed) s"
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
tail -2 /tmp/logs/probe.log; cat "$OUT/racecheck.txt"
test_summary | tee "$OUT/checks.txt"
timeout 150 python tools/pass_cost_probe.py 2>&1 | tee "$OUT/pass_cost_probe.log"
CUTE_KERNELS_BENCH_SHAPES=4,5,6,9,10,11 timeout 120 python tools/fused_fp4_probe.py 2>&1 |
  tee "$OUT/fused_fp4_probe.log"
echo "done after $(elapsed) s"
