#!/usr/bin/env bash
# Session 85, an H200 only (on an H100 it stops at once): the stale rows most likely to pass
# now: the nvfp4_gemm suite at the shape indices given (default "1 6", ~330 s: 5120x17408,
# W4A16 M = 1024 0.89x in session 76, before the wide lanes; 7168x2048, W4A16 M = 256 0.88x,
# session 44; "6" alone ~200 s), the swiglu suite at 1024x7168 (fused W4A16 M = 1024 0.99x,
# session 60), and the targets report. session85_h200.sh is the long form (~520 s).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session85_short.sh [INDEX...]
source "$(dirname "$0")/../device_common.sh"
only_on_h200
shapes=("$@"); [ $# -gt 0 ] || shapes=(1 6)
warm_suite nvfp4_gemm "${shapes[@]}"
warm_suite swiglu 2
report_warm
run_suite swiglu 90 2
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" "${shapes[@]}"
echo "done after $(elapsed) s"
