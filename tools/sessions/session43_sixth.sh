#!/usr/bin/env bash
# Session 43's sixth call (~250 s): the GPU chain tests of the new launch rules (the fifth
# call's GEMM / fused test files ran past their 280 s on a cold cache, every test passing
# up to there), then the nvfp4_gemm suite's 7168x18432 and 5120x17408 and the swiglu suite's
# 9216x7168 on the new rules.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 0 1
warm_suite swiglu 1
gpu_tests 250 /tmp/logs/t-chains.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "small_m_pdl_chain or register_start_chain or dependent_chain or one_wave or staged" &
report_warm_and_tests
run_suite nvfp4_gemm 100 0 1
run_suite swiglu 100 1
suite_lines "1|4|8|16|64"
echo "done after $(elapsed) s"
