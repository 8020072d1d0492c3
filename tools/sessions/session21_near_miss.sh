#!/usr/bin/env bash
# tools/near_miss_probe.py parts 4..6 (session 20's near misses: fused 34816x5120 M = 1,
# 9216x7168 M = 4 / 8, fused 4096x7168 M = 16), compiled in parallel, then timed.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session21_near_miss.sh   (~200 s)
source "$(dirname "$0")/../device_common.sh"
warm_points near_miss_probe 150 4 5 6
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=4,5,6 timeout 200 python tools/near_miss_probe.py 2>&1 | tee "$OUT/near_miss_probe.log"
echo "done after $(elapsed) s"
