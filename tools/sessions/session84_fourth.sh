#!/usr/bin/env bash
# Session 84's fourth call, session84_third.sh shortened for the device time left. On an H200
# (~450 s): the nvfp4_gemm suites at 5120x17408, 7168x18432 and 7168x2048 and the swiglu suite
# at 1024x7168 (issue 5 / 6's H200 rows older than the changes that should move them: the wide
# lanes at M = 1024, 7168x2048 M = 256 from session 44, the fused W4A16 1024x7168 M = 1024
# from session 60, 7168x18432 against QuACK before the 8-token tiles), the targets report,
# then tools/w4a16_staged_probe.py if time is left. On an H100 (~90 s): the probe alone.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_fourth.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
warm_points w4a16_staged_probe 250 0 1 2 3
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  warm_suite nvfp4_gemm 1 0 6
  warm_suite swiglu 2
  report_warm
  run_suite swiglu 100 2
  suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 1 0 6
  if [ "$(elapsed)" -lt 470 ]; then run_points w4a16_staged_probe 100 0 1 2 3; fi
else
  report_warm
  run_points w4a16_staged_probe 200 0 1 2 3
fi
echo "done after $(elapsed) s"
