#!/usr/bin/env bash
# Session 90: what staging the one token costs the balanced one-token launch on NVFP4 and on
# bf16 tokens (tools/staging_cost_probe.py: 5120x17408 and 9216x7168 at M = 1, with and without
# the staging), weights from DRAM, then from L2 (PROBE_L2=1). Either card (~120 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_staging.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staging_cost_probe 200 0 1
report_warm
run_points staging_cost_probe 90 0 1
PROBE_L2=1 run_points staging_cost_probe 90 0 1
echo "done after $(elapsed) s"
