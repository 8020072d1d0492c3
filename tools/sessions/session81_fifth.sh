#!/usr/bin/env bash
# Session 81's fifth call (~480 s, an H200 only: on an H100 it stops at once). The nvfp4_gemm
# suite at 9216x7168, 5120x17408, 7168x18432 (8-token tiles at W4A16 M = 4 / 8, two K groups
# from 60 units, the wide lanes at M = 1024: none in an H200 suite yet) and 7168x2048 (W4A16
# M = 256's row is session 44's), the swiglu suite at 1024x7168 (fused W4A16 M = 1024's row is
# session 60's), and the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_fifth.sh
source "$(dirname "$0")/../device_common.sh"
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "not an H200: nothing run"; exit 0
fi
warm_suite nvfp4_gemm 4 1 0 6
warm_suite swiglu 2
report_warm
run_suite swiglu 100 2
suite_targets nvfp4_gemm "1|4|8|16|32|64|256|1024" 4 1 0 6
echo "done after $(elapsed) s"
