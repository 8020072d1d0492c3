#!/usr/bin/env bash
# Session 27, call 8 (<= 280 s): tools/fused_route_probe.py at issue 6's open 1024x7168 points
# (M = 256 / 4096 / 16384 against cuBLAS + silu: 0.94 / 0.97 / 0.98x in session 26): the route
# against the fused kernel forced onto whole 64 / 128 / 256-token tiles and stream-K 128 / 256.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_routes.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_route_probe 150 20 21 22
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
CUTE_KERNELS_BENCH_SHAPES=20,21,22 timeout 150 python tools/fused_route_probe.py 2>&1 | tee "$OUT/routes.log"
echo "done after $(elapsed) s"
