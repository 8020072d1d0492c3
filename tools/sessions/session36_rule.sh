#!/usr/bin/env bash
# Session 36's fourth call (~420 s): the rule ``pdl_trigger_plan`` (the PDL trigger with the
# activation pass spread over the SMs) on the fused op's half-group launches
# (tools/fused_trigger_probe.py) and on nvfp4_gemm's plans it newly covers
# (tools/pass_spread_probe.py points 14..18), compiled in parallel first; then the GPU tests of
# the trigger (W4A4 MLP chains in graphs), the spread pass, the GEMM and fused routes, models.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_rule.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_trigger_probe 240 0 1 2 3 4
warm_points pass_spread_probe 240 14 15 16 17 18
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 120 python tools/fused_trigger_probe.py 2>&1 | tee "$OUT/fused_trigger_probe.log"
CUTE_KERNELS_BENCH_SHAPES=14,15,16,17,18 timeout 100 python tools/pass_spread_probe.py 2>&1 \
  | tee "$OUT/pass_spread_probe.log"
echo "probes done after $(elapsed) s"
gpu_tests 280 /tmp/logs/t-trigger.log tests/test_pdl_trigger.py tests/test_nvfp4_dequant.py &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_wg_k_split.py &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 280 /tmp/logs/t-models.log tests/models &
wait
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
