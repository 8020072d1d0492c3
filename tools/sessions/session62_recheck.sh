#!/usr/bin/env bash
# Session 62 call 7 (~150 s): tests/test_stream_k_lanes.py after the fused op's split-route rule
# went back to the plain plan before its 128-token lanes (call 6: the fused op at 4096x7168
# W4A16 M = 2100 had taken the fp32 split route, no lanes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session62_recheck.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 14 150 tests/test_stream_k_lanes.py
echo "done after $(elapsed) s"
