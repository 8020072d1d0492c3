#!/usr/bin/env bash
# Session 25's last call: tools/plain_route_probe.py at M = 1024 on the three shapes whose
# suite times rose with session 24's plan (7168x18432, 5120x17408, 7168x2048), after
# PLAIN_MID_M_MAX put them back on session 22's plans (~170 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_m1024.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_route_probe 100 12 13 14
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -8
CUTE_KERNELS_BENCH_SHAPES=12,13,14 timeout 70 python tools/plain_route_probe.py 2>&1 | tee "$OUT/plain_route.log"
echo "done after $(elapsed) s"
