#!/usr/bin/env bash
# Session 51, third call (~200 s): ``decode_ahead`` with its decoders prefetching two chunks
# ahead into L2 (call 2 had it correct but slower than the public route: the decoders' chunks
# were a serial chain of DRAM round trips, stores and fences). Its GPU tests, memcheck /
# racecheck, then ``tools/decode_ahead_probe.py``.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_prefetch.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 240 /tmp/logs/t-da.log tests/test_decode_ahead.py &
warm_points decode_ahead_probe 240 0 1 2 3
report_warm_and_tests
sanitize_script sanitize_decode_ahead
run_points decode_ahead_probe 200 0 1 2 3
echo "done after $(elapsed) s"
