#!/usr/bin/env bash
# Session 30's eighth call (~180 s): the fused op's GPU tests on the "pieces" route (public
# function against the reference and against the launch itself) and the models' tests.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_eighth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 190 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "large_m_matches_reference or pieces or split_route or tensor_scalars or graph" &
gpu_tests 190 /tmp/logs/t-models.log tests/models &
wait
test_summary
echo "done after $(elapsed) s"
