#!/usr/bin/env bash
# Session 84's second call (~200 s, either card): tools/w4a16_staged_probe.py (W4A16 at 4 and 8
# tokens on the small kernel with staged activations, against the public wgmma route and the
# W4A4 small kernel; 9216x7168 and 5120x17408), and the four narrow-route W4A16 tests that call 1
# stopped at their stale route assertion (8-token tiles since session 82), now fixed.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_second.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
warm_points w4a16_staged_probe 250 0 1 2 3
gpu_tests 250 /tmp/logs/t-narrow.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "public_w4a16_on_the_narrow_route" &
report_warm_and_tests
run_points w4a16_staged_probe 250 0 1 2 3
echo "done after $(elapsed) s"
