#!/usr/bin/env bash
# Session 39's first call (prepared in session 38, ~500 s): the wgmma kernel decoding its NVFP4
# activations in the kernel (converted_act, built in session 38, never run): its GPU tests
# (tests/test_converted_act.py: the public route's bits on each launch form, a graph chain),
# compute-sanitizer memcheck on tools/sanitize_probe.py (its last section runs the new kernel;
# racecheck in session39_second.sh), tools/pass_cost_probe.py at issue 5's near misses (public, i.e. pass +
# GEMM, against the GEMM alone, the in-kernel decode "fp4" and W4A16, nine points) and
# tools/fused_fp4_probe.py (the fused op's routes with the in-kernel decode against public and
# cuBLAS + silu: issue 6's 1024x7168 at M >= 1024 first), all compiled first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session39_first.sh
source "$(dirname "$0")/../device_common.sh"
# a first run of the new kernels, form by form (a hang names its form and stops the call)
timeout 120 python tools/converted_act_smoke.py 2>&1 | tee "$OUT/converted_act_smoke.log"
if ! grep -q "smoke done" "$OUT/converted_act_smoke.log"; then
  echo "fp4 smoke did not finish after $(elapsed) s: stopping"; exit 1
fi
gpu_tests 280 /tmp/logs/t-fp4.log tests/test_converted_act.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 220) &
warm_points pass_cost_probe 200 $(seq 0 8)
warm_points fused_fp4_probe 200 $(seq 0 11)
wait
echo "warm-up, tests and sanitizers done after $(elapsed) s"
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
tail -2 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
test_summary | tee "$OUT/checks.txt"
timeout 150 python tools/pass_cost_probe.py 2>&1 | tee "$OUT/pass_cost_probe.log"
timeout 240 python tools/fused_fp4_probe.py 2>&1 | tee "$OUT/fused_fp4_probe.log"
echo "done after $(elapsed) s"
