#!/usr/bin/env bash
# Session 84's fifth call, session84_fourth.sh cut to the device time left (~530 s). On an
# H200 (~330 s): the nvfp4_gemm suites at 5120x17408 and 7168x2048 and the swiglu suite at
# 1024x7168 (the H200 rows older than the changes that should move them: W4A16 5120x17408
# M = 1024 before the wide lanes, 7168x2048 M = 256 from session 44, the fused W4A16
# 1024x7168 M = 1024 from session 60), the targets report. On an H100 (~90 s): the W4A16
# ring probe (tools/w4a16_staged_probe.py).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_fifth.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  warm_suite nvfp4_gemm 1 6
  warm_suite swiglu 2
  report_warm
  run_suite swiglu 90 2
  suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 1 6
else
  warm_points w4a16_staged_probe 250 0 1 2 3
  report_warm
  run_points w4a16_staged_probe 200 0 1 2 3
fi
echo "done after $(elapsed) s"
