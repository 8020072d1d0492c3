#!/usr/bin/env bash
# Session 58 call 2 (~250 s, prepared in session 57): tools/bf16_weights_probe.py points 19-24
# with w4a16_stream_k_plan as the route ("fused" should match "fused_sk256"),
# tools/stream_k_stretch_probe.py (1024x7168's stream-K stretch against whole / 256-token
# launches, both activations) and tools/swapped_pair_probe.py (the swapped kernel's cluster
# pairs at 1024x7168 M = 1536..2048, and the swapped kernel past its wave rule at 2304 / 2500,
# where the normal route is stream-K; SWAPPED_PAIRS is off until this measures it).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session58_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points bf16_weights_probe 250 19 20 21 22 23 24
warm_points stream_k_stretch_probe 250 0 1 2 3
warm_points swapped_pair_probe 250 0 1 2 3 4 5
report_warm
run_points swapped_pair_probe 150 0 1 2 3 4 5
run_points stream_k_stretch_probe 150 0 1 2 3
run_points bf16_weights_probe 150 19 20 21 22 23 24
echo "done after $(elapsed) s"
