#!/usr/bin/env bash
# Session 44's fourth call (~450 s): the fused one-token row-group trigger at the CTA start
# (STAGED_GROUPS_START_CTAS) in the DeepSeek-V3 TP4 MLP step at one token, rule / off
# (tools/mlp_step_switch_probe.py point 21), after the fused GPU test file on that rule.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points mlp_step_switch_probe 200 21
gpu_tests 400 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
report_warm_and_tests
run_points mlp_step_switch_probe 150 21
echo "done after $(elapsed) s"
