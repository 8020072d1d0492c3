#!/usr/bin/env bash
# Session 88's second flag call (~200 s, either card): the flag lost 0.75-1.1 us at every
# point in call 3 (H100). Since then the flag and the count sit in lines of their own. The
# flag's GPU tests (call 3's failed at a fixture), then tools/trigger_timeline.py (kernel spans
# of the plan's launch, the flag, the flag polled every microsecond) at 7168x2048 M = 256 and
# 7168x18432 M = 16, then tools/pass_flag_probe.py at four points.
# Closed (calls 3 and 5, H100): the flag lost 0.75-1.25 us a call; its code is now
# notes/pass-flag.patch (`git apply notes/pass-flag.patch` before running this).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session88_timeline.sh
source "$(dirname "$0")/../device_common.sh"
export TIMELINE_VARIANTS=plan,flag,flag_poll1us
gpu_tests 200 /tmp/logs/t-flag.log tests/test_pass_flag.py &
warm_points trigger_timeline 150 4 5
warm_points pass_flag_probe 170 5 0 6 7
report_warm_and_tests
run_points trigger_timeline 90 4 5 | grep -E "kernels|mean|per call"
run_points pass_flag_probe 150 5 0 6 7
echo "done after $(elapsed) s"
