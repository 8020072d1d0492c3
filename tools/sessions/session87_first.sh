#!/usr/bin/env bash
# Session 87's first call (~150 s on an H100, ~420 s on an H200): session 86's short-K fix
# (7168x2048 at one token on permuted words: 7.53 / 7.60 us on the balanced (8, 3) launch in
# session 86's call 10, ~3.8 expected on the unbalanced one): tools/balanced_probe.py points 10
# and 11 (public against (8, 3)) and the balanced GPU tests on either card; on an H200 also the
# nvfp4_gemm suite at 7168x2048 and the swiglu suite at 9216x7168 (issue 6's open M = 1 row is
# session 76's, older than the fused (8, 2) launch), with the targets and the rows that moved.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points balanced_probe 150 10 11
gpu_tests 200 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
if on_h200; then
  warm_suite nvfp4_gemm 6
  warm_suite swiglu 1
fi
report_warm_and_tests
run_points balanced_probe 90 10 11
echo "probe done after $(elapsed) s"
if on_h200; then
  run_suite swiglu 150 1
  suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 6
  grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
fi
echo "done after $(elapsed) s"
