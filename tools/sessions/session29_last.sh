#!/usr/bin/env bash
# Session 29, call 8 (~60 s): the GPU test of W4A16 on the wgmma kernel from 5 tokens on
# weights over 32 Mi values (packed bytes of 36864x7168 at 5 and 8 tokens, public function
# against fp64), with the rest of that test and the W4A16 route tests.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_last.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 150 /tmp/logs/t-order.log tests/test_k_order.py -k "w4a16" &
gpu_tests 150 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "w4a16" &
wait
test_summary
echo "done after $(elapsed) s"
