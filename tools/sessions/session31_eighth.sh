#!/usr/bin/env bash
# Session 31's eighth call (~250 s): tools/fused_route_probe.py with the quantizer warps off
# ("route_q0") beside the route and the pair, on packed bytes (CUTE_KERNELS_PROBE_PACKED=1:
# 4096x7168 M = 129 / 256, 1024x7168 M = 1024, where the fused op on packed bytes reads
# 0.98x its pair at 1024x7168) and on permuted words (4096x7168 M = 256, 1024x7168 M = 1024).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_eighth.sh
source "$(dirname "$0")/../device_common.sh"
for i in 8 10 14; do
  CUTE_KERNELS_PROBE_PACKED=1 CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i \
    timeout 200 python tools/fused_route_probe.py > /tmp/logs/warm-p$i.log 2>&1 &
done
for i in 10 14; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i \
    timeout 200 python tools/fused_route_probe.py > /tmp/logs/warm-q$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_PROBE_PACKED=1 CUTE_KERNELS_BENCH_SHAPES=8,10,14 timeout 150 \
  python tools/fused_route_probe.py 2>&1 | tee "$OUT/fused_route_packed.log"
CUTE_KERNELS_BENCH_SHAPES=10,14 timeout 100 python tools/fused_route_probe.py 2>&1 \
  | tee "$OUT/fused_route_permuted.log"
echo "done after $(elapsed) s"
