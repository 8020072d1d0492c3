#!/usr/bin/env bash
# Session 29, call 5 (~90 s): the GPU tests of packed_plan (packed bytes on stream-K 256-token
# tiles at 129..256 tokens, W4A4 and W4A16 against fp64) and of the wgmma kernel in PAIRS on
# that launch.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_fifth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "wide or packed" &
gpu_tests 200 /tmp/logs/t-order.log tests/test_k_order.py -k "large_m_paths" &
wait
test_summary
echo "done after $(elapsed) s"
