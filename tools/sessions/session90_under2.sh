#!/usr/bin/env bash
# Session 90: NEXT_STEP_UNDER_STAGING on the other one-token balanced launches - the fused
# 9216x7168 on NVFP4 and bf16 tokens, the plain 7168x18432 (tools/staging_cost_probe.py points 2
# and 3) from DRAM and from L2. Either card (~90 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_under2.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 2 3
report_warm
run_points staging_cost_probe 90 2 3
PROBE_L2=1 run_points staging_cost_probe 90 2 3
echo "done after $(elapsed) s"
