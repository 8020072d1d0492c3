#!/usr/bin/env bash
# Session 35's second call (~250 s): ``launch_planned``'s PDL trigger rule (the trigger after
# the main loop where no tile is cut into a fixed number of K pieces) checked over the model
# shapes' other plans, large M included (tools/gemm_trigger_probe.py, compiled in parallel
# first), then the GPU tests of ``nvfp4_gemm``'s routes, the large-M kernel and the models.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session35_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run gemm_trigger_probe 22 240
echo "probe done after $(elapsed) s"
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_wg_k_split.py &
gpu_tests 200 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 200 /tmp/logs/t-models.log tests/models &
wait
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
