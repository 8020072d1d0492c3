#!/usr/bin/env bash
# Session 80's second call (~120 s, any card): what the stubbed 16-token stream spends its time
# on (tools/stream_parts_probe.py: without the activations, the weights, the scales, all of
# them; the weights from contiguous 4 KB blocks) at issue 5's M = 16 points.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_second.sh
source "$(dirname "$0")/../device_common.sh"
for i in 0 1; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/stream_parts_probe.py > /tmp/logs/warm-parts$i.log 2>&1 &
done
report_warm
timeout 200 python tools/stream_parts_probe.py 2>&1 | tee "$OUT/stream_parts_probe.log"
echo "done after $(elapsed) s"
