#!/usr/bin/env bash
# The small-M UNDER_STAGING by row groups (tools/small_m_rg_probe.py): the plain 36864x7168 /
# 34816x5120 one-token launches on the fused op's two-row-group config with and without it, the
# fused op at 2..8 tokens; and the balanced fused 9216x7168 launch with the second step under
# the staging from L2 (tools/staging_cost_probe.py point 2; from DRAM it won 0.3 us in session
# 90). Either card (~250 s on an H100). Where "under" wins on two row groups only: a rule in
# ``small_m_under_staging`` (and ``under_staging`` without its one-row-group condition).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session91_rg.sh
source "$(dirname "$0")/../device_common.sh"
warm_points small_m_rg_probe 240 0 1 2 3 4 5
warm_points staging_cost_probe 240 2
report_warm
run_points small_m_rg_probe 200 0 1 2 3 4 5
PROBE_L2=1 run_points staging_cost_probe 60 2
echo "done after $(elapsed) s"
