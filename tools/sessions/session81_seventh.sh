#!/usr/bin/env bash
# Session 81's seventh call (~150 s on an H100, ~520 s on an H200): the early release's GPU
# tests (tests/test_early_release.py: the same bits) and tools/early_release_probe.py; on an
# H200 also the stage depth and balanced one-token probes (session81_sixth.sh's) and the
# nvfp4_gemm suite at 9216x7168 with the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_seventh.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
gpu_tests 250 "$OUT/t-early.log" tests/test_early_release.py &
warm_points early_release_probe 250 0 1 2 3 4 5
if [ "$h200" = 1 ]; then
  warm_points stage_depth_probe 200 0 1
  warm_points balanced_probe 200 4 8 5
  warm_suite nvfp4_gemm 4
fi
report_warm "tests and warm-up"
tail -n 1 "$OUT/t-early.log"; grep -E "^FAILED|^E  " "$OUT/t-early.log" | head -8
timeout 150 python tools/early_release_probe.py 2>&1 | tee "$OUT/early_release_probe.log"
echo "early release probe done at $(elapsed) s"
if [ "$h200" = 1 ]; then
  run_points stage_depth_probe 90 0 1
  run_points balanced_probe 90 4 8 5
  suite_targets nvfp4_gemm "1|4|8|16|32|64|1024" 4
fi
echo "done after $(elapsed) s"
