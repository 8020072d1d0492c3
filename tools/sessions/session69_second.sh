#!/usr/bin/env bash
# Session 69 call 2 (~250 s, prepared in session 68): tools/fused_gaps_probe.py points 0..5,
# issue 6's open points past 256 tokens (9216x7168 M = 600 against the pair; 1024x7168 M = 600
# NVFP4 and bf16 activations, 4096x7168 M = 1100 and 1024x7168 M = 1100 / 2100 bf16 against
# cuBLAS + silu): the fused op's route against forced launches, the pair and cuBLAS + silu.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_gaps_probe 150 0 1 2 3 4 5
report_warm
run_points fused_gaps_probe 200 0,1,2,3,4,5
echo "done after $(elapsed) s"
