#!/usr/bin/env bash
# Session 27, call 2 (~200 s): tools/packed_prefetch_probe.py, the fused op's register prefetch
# on packed words at 2..16 tokens on the five swiglu shapes (rule config against the prefetch
# toggled).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session27_prefetch.sh
source "$(dirname "$0")/device_common.sh"
warm_points packed_prefetch_probe 200 0 1 2 3 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
timeout 300 python tools/packed_prefetch_probe.py 2>&1 | tee "$OUT/packed_prefetch.log"
echo "done after $(elapsed) s"
