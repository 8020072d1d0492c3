#!/usr/bin/env bash
# Prepared in session 15 for the next session's first call: tools/m1_balance_probe.py (finer
# small-M work units at 1, 4 and 16 tokens) and tools/w4a16_regime_probe.py (W4A16 at 4..16
# tokens, small-M against the wgmma route), each warmed up one process per point first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session16_probes.sh   (~300 s)
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4 5 6 7 8; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 240 python tools/m1_balance_probe.py > "/tmp/logs/warm-balance$i.log" 2>&1 &
done
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 240 python tools/w4a16_regime_probe.py > "/tmp/logs/warm-w4a16$i.log" 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 150 python tools/m1_balance_probe.py 2>&1 | tee "$OUT/m1_balance_probe.log"
echo "balance probe done after $(elapsed) s"
timeout $(( 590 - $(elapsed) )) python tools/w4a16_regime_probe.py 2>&1 | tee "$OUT/w4a16_regime_probe.log"
echo "done after $(elapsed) s"
