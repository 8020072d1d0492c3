#!/usr/bin/env bash
# Session 100, either card: the late pieces with the warp-uniform spin (their GPU tests and
# tools/late_pieces_probe.py at issue 5's eight M <= 64 points; on an H200 four of them), then
# on an H200 session97_near.sh's rows and the early release at 8/16 tokens
# (session100_h200.sh), on an H100 the sanitizers on the late launches. All warmed side by
# side first. ~300 s on a cold H100, ~450 on an H200: the timeout cuts the last steps first.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session100_either.sh
source "$(dirname "$0")/../device_common.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
gpu_tests 240 /tmp/logs/t-late.log tests/test_async_fixup.py -k late &
if on_h200; then
  warm_points late_pieces_probe 200 0 1 2 4
  warm_at_ms 1 nvfp4_gemm 4
  near_miss_warm
  warm_points early_release_probe 240 0 1 2 3
  report_warm_and_tests
  run_points late_pieces_probe 100 0 1 2 4
  near_rows_run
  run_points early_release_probe 120 0 1 2 3
else
  warm_points late_pieces_probe 200 0 1 2 3 4 5 6 7
  report_warm_and_tests
  run_points late_pieces_probe 150 0 1 2 3 4 5 6 7
  sanitize_script sanitize_late_pieces 120
fi
echo "done after $(elapsed) s"
