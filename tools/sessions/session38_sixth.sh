#!/usr/bin/env bash
# Session 38's sixth call (~200 s): nvfp4_gemm's stream-K launches on 36864x7168 and
# 34816x5120 with more tiles than CTAs on 64- / 128- / 256-token tiles (one CTA an SM), where
# pdl_trigger_plan has no trigger (pass_spread_probe points 30..35: the four (trigger, spread)
# forms and the public route), after session 38 found the trigger alone faster on their 16- /
# 32-token tiles.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pass_spread_probe 200 30 31 32 33 34 35
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
CUTE_KERNELS_BENCH_SHAPES=30,31,32,33,34,35 timeout 150 python tools/pass_spread_probe.py 2>&1 \
  | tee "$OUT/pass_spread_probe.log"
echo "done after $(elapsed) s"
