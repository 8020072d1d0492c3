#!/usr/bin/env bash
# Session 43's third call (~250 s): tools/wave_start_probe.py (the PDL trigger at the CTA
# start on every one-wave small-M launch; one staged token and the fused kernel held to their
# wave), then tools/mlp_step_switch_probe.py (the same switch in the Qwen3.8 / DeepSeek-V3 MLP
# steps at M = 4 / 8). (Run as session 43 had it; since rewritten on device_common.sh's
# report_warm / run_points, the same commands. wave_start_probe.py's points are now its
# second list: the first is in its comments.)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points wave_start_probe 200 $(seq 0 17)
warm_points mlp_step_switch_probe 200 0 1 2 3
report_warm
timeout 250 python tools/wave_start_probe.py 2>&1 | tee "$OUT/wave_start_probe.log"
run_points mlp_step_switch_probe 150 0 1 2 3
echo "done after $(elapsed) s"
