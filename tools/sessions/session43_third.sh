#!/usr/bin/env bash
# Session 43's third call (~250 s): tools/wave_start_probe.py (the PDL trigger at the CTA
# start on every one-wave small-M launch; one staged token and the fused kernel held to their
# wave), then tools/mlp_step_switch_probe.py (the same switch in the Qwen3.8 / DeepSeek-V3 MLP
# steps at M = 4 / 8).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points wave_start_probe 200 $(seq 0 17)
warm_points mlp_step_switch_probe 200 0 1 2 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
timeout 250 python tools/wave_start_probe.py 2>&1 | tee "$OUT/wave_start_probe.log"
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3 timeout 150 python tools/mlp_step_switch_probe.py 2>&1 \
  | tee "$OUT/mlp_step_switch_probe.log"
echo "done after $(elapsed) s"
