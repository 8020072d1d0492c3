#!/usr/bin/env bash
# Session 50, second call (~300 s): why "pairk" (stream-K on clusters of two) lost 0-5.5 us in
# call 1. The GPU's co-resident clusters of two; the public kernel launched in clusters that do
# nothing together ("cluster") beside "pairk", with PDL and without (CUTE_KERNELS_DISABLE_PDL).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_cluster.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=pairk,cluster
POINTS="1 6 12 32"
timeout 60 python -c "import torch; torch.zeros(1, device='cuda')
from cutlass.utils import HardwareInfo as H
print('clusters of two at once:', H().get_max_active_clusters(2))"
warm_points prefetch_depth_probe 240 $POINTS
for i in $POINTS; do
  CUTE_KERNELS_DISABLE_PDL=1 CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i \
    timeout 240 python tools/prefetch_depth_probe.py > /tmp/logs/warm-nopdl$i.log 2>&1 &
done
report_warm
run_points prefetch_depth_probe 150 $POINTS
echo "without PDL:"
CUTE_KERNELS_DISABLE_PDL=1 run_points prefetch_depth_probe 150 $POINTS
echo "done after $(elapsed) s"
