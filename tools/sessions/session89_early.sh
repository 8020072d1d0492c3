#!/usr/bin/env bash
# Session 89: the balanced one-token launches with each K warp's second walk step loaded before
# the PDL wait too, or the first step after it (``NVFP4GemmOneTokenBalanced`` probe switches):
# its GPU tests (the default launch's bits) and tools/balanced_probe.py points 12..16 (the
# public launches of issue 5 / 6's open one-token rows, default against "e" and "a"). Either card
# (~100 s on an H100); the H200 decides.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_early.sh [INDEX...]
source "$(dirname "$0")/../device_common.sh"
points=("$@")
[ $# -eq 0 ] && points=(12 13 14 15 16)
warm_points balanced_probe 240 "${points[@]}"
gpu_tests 240 /tmp/logs/t-loads.log tests/test_nvfp4_gemm_balanced.py -k moved_first_loads &
report_warm_and_tests
run_points balanced_probe 300 "${points[@]}"
echo "done after $(elapsed) s"
