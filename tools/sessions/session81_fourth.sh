#!/usr/bin/env bash
# Session 81's fourth call (~450 s on an H200, ~300 s on an H100). On an H200: the nvfp4_gemm
# suite at 9216x7168, 5120x17408 and 7168x18432 (8-token tiles at W4A16 M = 4 / 8, two K
# groups from 60 units, the wide lanes at M = 1024: none H200-measured in the suite yet) and
# the targets report. On an H100: the GEMM GPU tests and memcheck / racecheck on
# tools/sanitize_probe.py (8-token tiles added).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_fourth.sh
source "$(dirname "$0")/../device_common.sh"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  warm_suite nvfp4_gemm 4 1 0
  report_warm
  suite_targets nvfp4_gemm "1|4|8|16|32|64|1024" 4 1 0
else
  sanitize_both
  all_gpu_tests 8 400 tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py \
    tests/test_w4a16_stream_k.py tests/test_stream_k_lanes.py
  wait
  cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"; tail -2 /tmp/logs/probe.log
fi
echo "done after $(elapsed) s"
