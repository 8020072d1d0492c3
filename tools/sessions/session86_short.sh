#!/usr/bin/env bash
# Session 86's second call (~150 s, either card): 7168x2048 at one token, where the public ops
# took the balanced (8, 3) launch (one K step a warp) and ran 7.53 / 7.60 us on the H200
# against 4.48 / 4.43 on packed bytes (call 10's suite); now they skip it
# (``PUBLIC_BALANCED_MIN_STEPS``). tools/balanced_probe.py points 10 and 11 (public against
# (8, 3)), the balanced GPU tests, and on an H200 the nvfp4_gemm suite at 7168x2048.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session86_short.sh
source "$(dirname "$0")/../device_common.sh"
warm_points balanced_probe 150 10 11
gpu_tests 200 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
on_h200 && warm_suite nvfp4_gemm 6
report_warm_and_tests
run_points balanced_probe 90 10 11
echo "probe done after $(elapsed) s"
if on_h200; then
  suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 6
fi
echo "done after $(elapsed) s"
