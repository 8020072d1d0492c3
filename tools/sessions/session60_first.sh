#!/usr/bin/env bash
# Session 60 call 1 (~330 s, prepared in session 59): every GPU test on session 59's routes
# (the W4A16 token tails read in place landed after call 4 with its own tests only:
# tests/test_w4a16_stream_k.py, memcheck / racecheck), and the swiglu suite's 1024x7168 /
# 4096x7168 beside them.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session60_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2 3
all_gpu_tests 14 360
report_warm
run_suite swiglu 100 2 3
suite_lines
grep -h "W4A16 permuted" "$OUT"/bench-swiglu*.log | cut -c1-150
echo "done after $(elapsed) s"
