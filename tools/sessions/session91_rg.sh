#!/usr/bin/env bash
# The small-M UNDER_STAGING by row groups (tools/small_m_rg_probe.py): the plain 36864x7168 /
# 34816x5120 one-token launches on the fused op's two-row-group config with and without it, the
# fused op at 2..8 tokens. Either card (~200 s on an H100). Where "under" wins on two row
# groups only: a rule in ``small_m_under_staging``.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session91_rg.sh
source "$(dirname "$0")/../device_common.sh"
warm_points small_m_rg_probe 240 0 1 2 3 4 5
report_warm
run_points small_m_rg_probe 200 0 1 2 3 4 5
echo "done after $(elapsed) s"
