#!/usr/bin/env bash
# The wgmma decode change: large-M GPU tests (plain, stream-K, fused), then tools/decode_probe.py.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session6_decode.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large_m" &
check_then_probe decode_probe
