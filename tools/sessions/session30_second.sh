#!/usr/bin/env bash
# Session 30's second call (~200 s): tools/fused_w4a16_regime_probe.py at the points the first
# call left out (indices 8..20: 4096x7168 and 1024x7168 at 9..16 tokens, 9216x7168 at 9 / 12,
# the big weights at 4 / 5 tokens), for the fused op's W4A16 regime rule.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_w4a16_regime_probe 200 $(seq 8 20)
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=$(seq -s, 8 20) timeout 250 python tools/fused_w4a16_regime_probe.py \
  2>&1 | tee "$OUT/fused_w4a16.log"
echo "done after $(elapsed) s"
