#!/usr/bin/env bash
# Session 31's last call (~200 s): the GPU tests of this session's routes (the fused op at
# 1024x7168 on stream-K at 520 tokens and the wide pieces at 1000; the large-M route tests; the
# plain GEMM's route tests) and the models. No kernel changed this session (routes only), so
# no sanitizer run.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "large_m_matches_reference or mid_m_routes or stream_k or pieces or split_route" &
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "route or wide or split" &
gpu_tests 300 /tmp/logs/t-models.log tests/models &
wait
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
