#!/usr/bin/env bash
# Session 49, first call (~300 s): the asynchronous stream-K fix-up (ASYNC_FIXUP). Its GPU
# tests (same bits as stream_k_fixup) and memcheck / racecheck on its launches, then
# tools/prefetch_depth_probe.py's "async" form against the public route at issue 5's stream-K
# points and the fused op's.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session49_async.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=async
POINTS="1 2 0 6 7 12 20 29"
warm_points prefetch_depth_probe 240 $POINTS
gpu_tests 200 /tmp/logs/t-async.log tests/test_async_fixup.py &
report_warm_and_tests
sanitize_script sanitize_async_fixup
run_points prefetch_depth_probe 300 $POINTS
echo "done after $(elapsed) s"
