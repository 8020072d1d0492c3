#!/usr/bin/env bash
# Session 42's fourth call (~350 s): the fused kernel's one-token rule on row groups
# (``swiglu_small_m_config``'s (1, 1, 8, 1, 1, 2) at 9216x7168 / 36864x7168): its GPU tests and
# the model tests, the swiglu suite's shapes 0, 1 on it; and tools/one_wave_switch_probe.py
# (9216x7168 M = 4 / 8, issue 5's near miss, under the one-wave path's launch switches).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points one_wave_switch_probe 200 0 1 2 3
warm_suite swiglu 0 1
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "one_token or graph or replay or chain" &
gpu_tests 300 /tmp/logs/t-models.log tests/models tests/test_pdl_trigger.py &
report_warm_and_tests
timeout 150 python tools/one_wave_switch_probe.py 2>&1 | tee "$OUT/one_wave_switch_probe.log"
run_suite swiglu 90 0 1
suite_lines "1|16|64|256|1024"
echo "done after $(elapsed) s"
