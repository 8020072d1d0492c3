#!/usr/bin/env bash
# Session 100. On an H200: session97_near.sh's rows (the 9216x7168 M = 1 row with the
# row-group route, the near misses of sessions 86-88), then ``NVFP4GemmLargeM.EARLY_RELEASE``
# at issue 5's 16- and 8-token points, which the H100 found even (session 81) and which aims
# at the H200's consumer-bound launches. All warmed side by side first. ~300 s on a cold
# H200: the timeout cuts the probe first. On an H100 (~150 s): the early release from L2
# (``tools/l2_consumer_probe.py``: the consumer-bound stand-in for the H200) and from DRAM.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session100_h200.sh
source "$(dirname "$0")/../device_common.sh"
if ! on_h200; then
  export CUTE_KERNELS_PROBE_VARIANTS=real_l2,early_l2,stub_l2,real_dram,early_dram
  warm_points l2_consumer_probe 240 0 2 3
  report_warm
  run_points l2_consumer_probe 150 0 2 3
  echo "done after $(elapsed) s"
  exit 0
fi
warm_at_ms 1 nvfp4_gemm 4
near_miss_warm
warm_points early_release_probe 240 0 1 2 3
report_warm
near_rows_run
run_points early_release_probe 120 0 1 2 3
echo "done after $(elapsed) s"
