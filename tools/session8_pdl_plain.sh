#!/usr/bin/env bash
# Next session, optional: tools/pdl_plain_probe.py, the plain small-M GEMM with PDL triggered
# after its main loop or only at exit, against no PDL (each variant warmed per shape in
# parallel, then timed one after another).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session8_pdl_plain.sh
source "$(dirname "$0")/device_common.sh"
for v in 0 1 2; do
  for i in 0 1 2 3 4 5 6; do
    PDL_PLAIN_VARIANT=$v CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/pdl_plain_probe.py > /tmp/logs/warm-pp$v$i.log 2>&1 &
  done
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-pp*.log | tail -10
for v in 0 1 2; do
  PDL_PLAIN_VARIANT=$v timeout 120 python tools/pdl_plain_probe.py 2>&1 | tee -a "$OUT/pdl_plain.log"
done
echo "done after $(elapsed) s"
