#!/usr/bin/env bash
# Session 43's seventh call (~110 s): the landed launch rules (one-wave trigger at the start,
# one staged token over one wave, the fused register path at the start) in the MLP steps
# against the same rules off (tools/mlp_step_switch_probe.py points 11-20).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_seventh.sh
source "$(dirname "$0")/../device_common.sh"
warm_points mlp_step_switch_probe 150 $(seq 11 20)
report_warm
run_points mlp_step_switch_probe 200 $(seq 11 20)
echo "done after $(elapsed) s"
