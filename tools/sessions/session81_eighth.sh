#!/usr/bin/env bash
# Session 81's eighth call (~90 s on an H100, ~520 s on an H200): tools/skeleton_probe.py (the
# 16-token stream-K launch's fixed cost against its per-stage cost, no loads); on an H200 also
# the early release (tools/early_release_probe.py, M = 16), the stage depth and balanced
# one-token probes, and the nvfp4_gemm suite at 9216x7168 with the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_eighth.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
warm_points skeleton_probe 250 0 1 2 3 4
if [ "$h200" = 1 ]; then
  warm_points early_release_probe 200 0 1 2
  warm_points stage_depth_probe 200 0 1
  warm_points balanced_probe 200 4 8 5
  warm_suite nvfp4_gemm 4
fi
report_warm
timeout 120 python tools/skeleton_probe.py 2>&1 | tee "$OUT/skeleton_probe.log"
echo "skeleton probe done at $(elapsed) s"
if [ "$h200" = 1 ]; then
  run_points early_release_probe 60 0 1 2
  run_points stage_depth_probe 90 0 1
  run_points balanced_probe 90 4 8 5
  suite_targets nvfp4_gemm "1|4|8|16|32|64|1024" 4
fi
echo "done after $(elapsed) s"
