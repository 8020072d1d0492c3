#!/usr/bin/env bash
# tools/mid_m_probe.py: the small-N shapes at M = 16..256 against every large-M launch (whole
# tiles, split K, stream-K) and cuBLAS, to revisit small_m_regime / large_m_plan there. One
# warm-up process per shape (its five M share the wgmma kernels), then the timed run.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session10_mid_m.sh
source "$(dirname "$0")/../device_common.sh"
for s in "0,1,2,3,4" "5,6,7,8,9" "10,11,12,13,14"; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$s timeout 300 python tools/mid_m_probe.py > "/tmp/logs/warm-mid${s%%,*}.log" 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout $(( 580 - $(elapsed) )) python tools/mid_m_probe.py 2>&1 | tee "$OUT/mid_m.log"
echo "done after $(elapsed) s"
