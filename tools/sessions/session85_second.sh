#!/usr/bin/env bash
# Session 85's second call, on an H200 (~350 s): the rest of session84_third.sh: the
# nvfp4_gemm suites at 9216x7168 and 7168x18432 (M = 1..1024, against QuACK: rows older than
# the 8-token tiles and the wide lanes) and tools/w4a16_staged_probe.py (W4A16 at 4 / 8
# tokens on the small kernel's cp.async ring against the public wgmma route).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session85_second.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "not an H200: nothing run"; exit 0
fi
warm_suite nvfp4_gemm 4 0
warm_points w4a16_staged_probe 250 0 1 2 3
report_warm
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 4 0
if [ "$(elapsed)" -lt 480 ]; then run_points w4a16_staged_probe 110 0 1 2 3; fi
echo "done after $(elapsed) s"
