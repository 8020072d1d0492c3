#!/usr/bin/env bash
# Session 46 (issue 6, ~150 s): where the fused op's time goes on 1024x7168 at M = 1024 / 4096
# / 16384, the points where it trails cuBLAS + silu (call 6: 32.5 / 92.9 / 363.8 against
# 30.5 / 92.1 / 357.7): the activations' decode pass alone and the fused kernel alone on its
# launches (tools/fused_large_m_probe.py, permuted words), beside the pair and the route.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_split.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_PERMUTED=1
POINTS="4 9 10"
warm_points fused_large_m_probe 200 $POINTS
report_warm
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 200 \
  python tools/fused_large_m_probe.py 2>&1 | tee "$OUT/fused_large_m_probe.log"
echo "done after $(elapsed) s"
