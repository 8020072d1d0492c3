#!/usr/bin/env bash
# Session 27, call 5 (~200 s): the bf16-activation rule on permuted words as changed after
# call 4 (prefetch off past two tokens over 64 Mi elements), two rounds of
# tools/packed_prefetch_probe.py on 36864x7168, 9216x7168 and 34816x5120.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_confirm.sh
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 3; do
  CUTE_KERNELS_PROBE_PERMUTED=1 CUTE_KERNELS_PROBE_BF16=1 CUTE_KERNELS_BENCH_WARM=1 \
    CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/packed_prefetch_probe.py \
    > /tmp/logs/warm-perm-$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
for round in 1 2; do
  CUTE_KERNELS_PROBE_PERMUTED=1 CUTE_KERNELS_PROBE_BF16=1 CUTE_KERNELS_BENCH_SHAPES=0,1,3 \
    timeout 100 python tools/packed_prefetch_probe.py 2>&1 | tee -a "$OUT/w4a16-permuted.log"
done
echo "done after $(elapsed) s"
