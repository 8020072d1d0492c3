#!/usr/bin/env bash
# Session 49, third call (~300 s): the asynchronous fix-up in its final form (all of a tile's
# pieces fit or none; no late pieces): its tests and the wgmma kernel's GPU tests, memcheck /
# racecheck on its launches, then tools/prefetch_depth_probe.py's "sync" form against the
# public route at issue 5's points and 5120x17408 M = 32 / 64.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session49_final.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=sync
POINTS="1 2 0 6 7 12 20 30 31"
warm_points prefetch_depth_probe 240 $POINTS
gpu_tests 280 /tmp/logs/t-async.log tests/test_async_fixup.py &
gpu_tests 280 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
report_warm_and_tests
sanitize_script sanitize_async_fixup
run_points prefetch_depth_probe 200 $POINTS
echo "done after $(elapsed) s"
