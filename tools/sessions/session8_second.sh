#!/usr/bin/env bash
# tools/pdl_load_probe.py (wait first / loads before the wait, alternated twice) and
# tools/swiglu_config_probe.py at M = 1 (every config, five shapes), warmed in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session8_second.sh
source "$(dirname "$0")/../device_common.sh"
for v in 0 1; do
  PDL_LOAD_VARIANT=$v CUTE_KERNELS_BENCH_WARM=1 timeout 250 python tools/pdl_load_probe.py > /tmp/logs/warm-load$v.log 2>&1 &
done
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/swiglu_config_probe.py 1 > /tmp/logs/warm-cfg$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
for v in 0 1 0 1; do
  PDL_LOAD_VARIANT=$v timeout 60 python tools/pdl_load_probe.py 2>&1 | tee -a "$OUT/pdl_load.log"
done
timeout 200 python tools/swiglu_config_probe.py 1 2>&1 | tee "$OUT/swiglu_config.log"
echo "done after $(elapsed) s"
