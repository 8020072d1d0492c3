#!/usr/bin/env bash
# arrival_counters (no memset per call): the split and stream-K GPU tests, then
# tools/counters_probe.py. Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session6_counters.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 150 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm.py \
  -k "stream_k or split or arrival" &
gpu_tests 150 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "split or stream_k or (matches_reference and 7168)" &
check_then_probe counters_probe
