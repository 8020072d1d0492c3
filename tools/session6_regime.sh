#!/usr/bin/env bash
# The fused op's small-M / stream-K wgmma crossover (tools/fused_regime_probe.py), cache filled
# by one warm-up process per shape. Usage: source .gpu/setup.sh; bash tools/session6_regime.sh
source "$(dirname "$0")/device_common.sh"
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/fused_regime_probe.py > /tmp/logs/warm-r$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A10 Traceback /tmp/logs/warm-*.log | tail -12
timeout 200 python tools/fused_regime_probe.py 2>&1 | tee "$OUT/fused_regime_probe.log"
echo "done after $(elapsed) s"
