#!/usr/bin/env bash
# Session 50, first call (~450 s): stream-K ranges on clusters of two (NVFP4GemmLargeM.PAIR_K):
# the GPU's co-resident clusters of two, its tests, memcheck / racecheck on its launches, then
# tools/prefetch_depth_probe.py's "pairk" and "pairsync" forms against the public route at
# issue 5's stream-K points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_pairk.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=pairk,pairsync
POINTS="1 2 0 6 7 12 30 32"
timeout 60 python -c "from cutlass.utils import HardwareInfo as H
print('clusters of two at once:', H().get_max_active_clusters(2))"
warm_points prefetch_depth_probe 240 $POINTS
gpu_tests 200 /tmp/logs/t-pairk.log tests/test_pair_k.py &
report_warm_and_tests
sanitize_script sanitize_async_fixup
run_points prefetch_depth_probe 260 $POINTS
echo "done after $(elapsed) s"
