#!/usr/bin/env bash
# Session 80's sixth call (~330 s on an H200; ~110 s on an H100, where only the depth probe
# runs): tools/stage_depth_probe.py (two K groups a stage at 6..14 stages, 16- and 32-token
# stream-K tiles, the launch alone), then on an H200 session80_fifth.sh's suites.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_sixth.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/stage_depth_probe.py > /tmp/logs/warm-depth$i.log 2>&1 &
done
[ "$h200" = 1 ] && session80_suites warm
report_warm
timeout 150 python tools/stage_depth_probe.py 2>&1 | tee "$OUT/stage_depth_probe.log"
echo "depth probe done at $(elapsed) s"
[ "$h200" = 1 ] && session80_suites run
echo "done after $(elapsed) s"
