#!/usr/bin/env bash
# The small-M kernel's UNDER_STAGING (session 90, a probe switch, unmeasured): its GPU tests
# (the same bits as the default, plain and fused), memcheck / racecheck
# (tools/sanitize_under_staging.py), and tools/small_m_under_probe.py (the one-token launches
# off the balanced grid: 36864x7168, 34816x5120, 4096x7168, 7168x2048 plain; 36864x7168,
# 34816x5120, 4096x7168, 1024x7168 fused) from DRAM and from L2. Either card (~250 s on an
# H100). Where "under" wins in both regimes: a rule (``small_m_under_staging``), then the H200.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session91_under_small.sh
source "$(dirname "$0")/../device_common.sh"
warm_points small_m_under_probe 240 0 1 2 3 4 5 6 7
gpu_tests 300 /tmp/logs/t-under.log tests/test_small_m_under_staging.py &
report_warm_and_tests
CUTE_KERNELS_CACHE_DIR=/tmp/kc-under sanitize_script sanitize_under_staging 200
run_points small_m_under_probe 150 0 1 2 3 4 5 6 7
PROBE_L2=1 run_points small_m_under_probe 150 2 3 6 7
echo "done after $(elapsed) s"
