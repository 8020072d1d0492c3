#!/usr/bin/env bash
# Session 29, call 4 (~250 s): the plain GEMM's launches at 129..1024 tokens on packed weight
# bytes (KOrder.PAIRS): call 3's suite had 7168x18432 W4A4 packed at M = 128 / 256 61.1 /
# 116.3 us against permuted words' 55.1 / 93.6 on the same plan (whole 128-token tiles), while
# 36864x7168 (stream-K 256) was within 2%. Does packed bytes' decode want other launches?
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session29_fourth.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_PACKED=1
warm_points plain_route_probe 200 0 1 4 5 11 12 13
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0,1,11,4,5,12,13 timeout 300 python tools/plain_route_probe.py 2>&1 \
  | tee "$OUT/plain_route_packed.log"
echo "done after $(elapsed) s"
