#!/usr/bin/env bash
# Session 82's third call: on an H200 session 81's eighth call (the early release, the stage
# depth, the fused one-token op at (12, 2), the 9216x7168 suite: ~520 s); on an H100 the
# nvfp4_gemm suite at 7168x18432 and 9216x7168 and the swiglu suite at 36864x7168 (the
# 8-token tiles of sessions 81-82 in an H100 suite, ~300 s) with the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_third.sh
here="$(dirname "$0")"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$here/session81_eighth.sh"
  exit
fi
source "$here/../device_common.sh"
warm_suite nvfp4_gemm 0 4
warm_suite swiglu 0
report_warm
run_suite swiglu 110 0
suite_targets nvfp4_gemm "1|4|8|16|32|64" 0 4
echo "done after $(elapsed) s"
