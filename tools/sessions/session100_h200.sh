#!/usr/bin/env bash
# Session 100. On an H200 (~200 s cold): session97_near.sh's rows (the 9216x7168 M = 1 row
# with the row-group route, the near misses of sessions 86-88), all warmed side by side
# first. On an H100 (~50 s warm, ~150 cold): the early release from L2
# (``tools/l2_consumer_probe.py``: the consumer-bound stand-in for the H200) and from DRAM
# (call 9: even both ways, so the H200 half no longer times it).
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
report_warm
near_rows_run
echo "done after $(elapsed) s"
