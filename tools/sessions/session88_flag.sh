#!/usr/bin/env bash
# Session 88's pass flag call (~300 s, either card: M = 256 is compute-bound and the boundary
# is a launch latency, so an H100 answers whether the flag gains): the flag's GPU tests,
# memcheck and racecheck on the flagged route (tools/sanitize_pass_flag.py), then
# tools/pass_flag_probe.py (default against flag, NVFP4 and bf16 tokens) at issue 5's open
# points that take a pass and two met rows near their bars.
# Closed (calls 3 and 5, H100): the flag lost 0.75-1.25 us a call; its code is now
# notes/pass-flag.patch (`git apply notes/pass-flag.patch` before running this).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session88_flag.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-flag.log tests/test_pass_flag.py &
warm_points pass_flag_probe 170 0 1 2 3 4 5 6 7
report_warm_and_tests
sanitize_script sanitize_pass_flag 120
run_points pass_flag_probe 200 5 0 1 3 4 2 6 7
echo "done after $(elapsed) s"
