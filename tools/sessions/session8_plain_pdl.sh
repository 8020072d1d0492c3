#!/usr/bin/env bash
# tools/pdl_load_probe.py variants 2..5 (the plain GEMM without PDL, and with PDL, loads before
# the wait, the trigger at start / after the loop / at exit), warmed per shape in parallel.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session8_plain_pdl.sh
source "$(dirname "$0")/../device_common.sh"
for v in 2 3 4 5; do
  for i in 0 1 2 3 4 5 6; do
    PDL_LOAD_VARIANT=$v CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/pdl_load_probe.py > /tmp/logs/warm-pl$v$i.log 2>&1 &
  done
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-pl*.log | tail -10
for v in 2 3 4 5; do
  PDL_LOAD_VARIANT=$v timeout 40 python tools/pdl_load_probe.py 2>&1 | tee -a "$OUT/plain_pdl.log"
done
echo "done after $(elapsed) s"
