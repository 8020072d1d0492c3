#!/usr/bin/env bash
# Session 84's third call. On an H200 (~500 s): session81_fifth.sh (the nvfp4_gemm suites at
# 9216x7168, 5120x17408, 7168x18432 and 7168x2048, the swiglu suite at 1024x7168: the rows
# that the H200 has not timed since the 8-token tiles, two K groups from 60 units and the wide
# lanes, and the targets report), then tools/w4a16_staged_probe.py if time is left. On an H100
# (~90 s): the probe alone (W4A16 at 4 / 8 tokens on the small kernel's cp.async ring, never
# measured with bf16 tokens, against the public wgmma route).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_third.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  warm_points w4a16_staged_probe 250 0 1 2 3
  bash "$here/session81_fifth.sh"
  if [ "$(elapsed)" -lt 450 ]; then run_points w4a16_staged_probe 120 0 1 2 3; fi
else
  warm_points w4a16_staged_probe 250 0 1 2 3
  report_warm
  run_points w4a16_staged_probe 200 0 1 2 3
fi
echo "done after $(elapsed) s"
