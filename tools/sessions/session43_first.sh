#!/usr/bin/env bash
# Session 43's first call (prepared in session 42, ~250 s): tools/fixed_part_probe.py (the
# one-token launches with their main loop capped at 0 / 1 / 2 / 4 iterations a warp: what the
# ~3.2 us fixed part of 9216x7168 M = 1 holds), then tools/mlp_step_pdl_probe.py (session
# 42's one-token PDL rule in the Qwen3.8 MLP step, not only in back-to-back GEMMs).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fixed_part_probe 200 0 1 2 3 4
warm_points one_wave_switch_probe 200 0 1
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python tools/mlp_step_pdl_probe.py \
  > /tmp/logs/warm-mlp_step_pdl_probe.log 2>&1 &
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
timeout 200 python tools/fixed_part_probe.py 2>&1 | tee "$OUT/fixed_part_probe.log"
timeout 100 python tools/mlp_step_pdl_probe.py 2>&1 | tee "$OUT/mlp_step_pdl_probe.log"
# 9216x7168 M = 4 / 8 (issue 5's 60% bar, 0.2-0.3 points short) with the trigger at the start
CUTE_KERNELS_BENCH_SHAPES=0,1 timeout 100 python tools/one_wave_switch_probe.py 2>&1 \
  | tee "$OUT/one_wave_switch_probe.log"
echo "done after $(elapsed) s"
