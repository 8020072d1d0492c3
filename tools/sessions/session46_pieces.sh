#!/usr/bin/env bash
# Session 46 (issue 6's open M >= 256 points, ~300 s): the fused op on 1024x7168 (Kimi-K2.5's
# shared expert, 2I x K) at M = 256 / 1024 / 2048 / 4096 / 16384 against cuBLAS bf16 + torch
# silu * mul, through tools/fused_route_probe.py with CUTE_KERNELS_PROBE_PIECES=1: the route,
# the "pieces" launch (split-K stream-K) forced at 64- / 128- / 256-token tiles and 2..4
# splits, whole tiles, stream-K, the pair, cuBLAS alone and the public op on bf16 activations.
# Session 45's cheaper fix-up moves every stream-K and pieces launch; the last table of these
# points is session 41's (M = 1024: 32.9 against 31.4) and session 26's (M = 4096 / 16384).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_pieces.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_PIECES=1
POINTS="20 14 15 21 22"
warm_points fused_route_probe 250 $POINTS
report_warm
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 240 python tools/fused_route_probe.py \
  2>&1 | tee "$OUT/fused_route_probe.log"
echo "done after $(elapsed) s"
