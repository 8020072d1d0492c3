#!/usr/bin/env bash
# Session 85, an H200 only (~200 s; on an H100 it stops at once): session85_short.sh without
# 5120x17408: the nvfp4_gemm suite at 7168x2048 (W4A16 M = 256 0.88x, session 44) and the
# swiglu suite at 1024x7168 (fused W4A16 M = 1024 0.99x, session 60), and the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session85_shortest.sh
source "$(dirname "$0")/../device_common.sh"
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "not an H200: nothing run"; exit 0
fi
warm_suite nvfp4_gemm 6
warm_suite swiglu 2
report_warm
run_suite swiglu 90 2
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 6
echo "done after $(elapsed) s"
