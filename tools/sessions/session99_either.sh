#!/usr/bin/env bash
# Session 99, one call for whichever card comes: session99_late.sh's late pieces (GPU tests,
# tools/late_pieces_probe.py at issue 5's eight M <= 64 points), then on an H200 only
# session97_near.sh's rows (9216x7168 M = 1 with the row-group route, the near misses of
# sessions 86-88), then the 16-token stream-K timeline with its ``late`` form and the
# sanitizers on the late launches (on an H100 the quantizer's timeline too). All warmed side
# by side first. ~550 s on a cold H200: the timeout cuts the last steps first.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session99_either.sh
source "$(dirname "$0")/../device_common.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
warm_points late_pieces_probe 240 0 1 2 3 4 5 6 7
gpu_tests 300 /tmp/logs/t-late.log tests/test_async_fixup.py tests/test_stream_k_stamps.py &
warm_points stream_k_timeline 240 0 1
if on_h200; then
  warm_at_ms 1 nvfp4_gemm 4
  near_miss_warm
else
  warm_points quant_timeline 200 0 1 2 3
fi
report_warm_and_tests
run_points late_pieces_probe 150 0 1 2 3 4 5 6 7
if on_h200; then
  near_rows_run
fi
run_points stream_k_timeline 100 0 1
sanitize_script sanitize_late_pieces 120
on_h200 || run_points quant_timeline 100 0 1 2 3
echo "done after $(elapsed) s"
