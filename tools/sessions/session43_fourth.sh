#!/usr/bin/env bash
# Session 43's fourth call (~250 s): tools/wave_start_probe.py's second point list (one
# staged token held to its wave on the other one-wave shapes, the trigger at the start on more
# register launches, the fused kernel's trigger at the start), then the MLP steps
# (tools/mlp_step_switch_probe.py points 5-10) with all three switches.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points wave_start_probe 200 $(seq 0 22)
warm_points mlp_step_switch_probe 200 5 6 7 8 9 10
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
timeout 250 python tools/wave_start_probe.py 2>&1 | tee "$OUT/wave_start_probe.log"
CUTE_KERNELS_BENCH_SHAPES=5,6,7,8,9,10 timeout 200 python tools/mlp_step_switch_probe.py 2>&1 \
  | tee "$OUT/mlp_step_switch_probe.log"
echo "done after $(elapsed) s"
