#!/usr/bin/env bash
# Session 46's suite call (prepared in session 45, ~450 s): the nvfp4_gemm suite on the shapes
# whose stream-K points session 45's fix-up moved (7168x18432, 5120x17408, 36864x7168,
# 9216x7168: issue 5's closing rows at M = 16..256) and the swiglu suite's 36864x7168 and
# 9216x7168 (the fused stream-K at M >= 17). The 9216x7168 row also answers session 45's
# question: its M = 64 read 27.0 us in the A/B probe against the session 43 suite's 24.7.
# Also memcheck + racecheck on tools/quant_sanitize_probe.py: its split-tail launches (the
# option removed in eb41857) had stopped it at a TypeError before the ring and activation
# passes; session 46 call 2 saw the exit 1.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_suites.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 0 1 2 4
warm_suite swiglu 0 1
quant_sanitize memcheck racecheck &
report_warm
tail -2 /tmp/logs/qprobe.log; cat "$OUT/memcheck.txt"
run_suite nvfp4_gemm 100 0 1 2 4
run_suite swiglu 100 0 1
suite_lines "1|16|32|64|256"
echo "done after $(elapsed) s"
