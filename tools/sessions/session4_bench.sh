#!/usr/bin/env bash
# Session 4, device call 2: fill the kernel cache from parallel warm-up processes (one per
# shape), then time: the token-tile probe, the swiglu and quant suites; racecheck meanwhile.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session4_bench.sh
source "$(dirname "$0")/../device_common.sh"
sanitize racecheck 200 &
timeout 200 python -m pytest -m gpu -q -p no:cacheprovider -k "large_m" tests/test_nvfp4_gemm_swiglu_quant.py > "$OUT/t-swiglu-large.log" 2>&1 &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python -m cute_kernels.bench swiglu --out /tmp/warm$i > "$OUT/warm-swiglu$i.log" 2>&1 &
done
for i in 0 1 2 3; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python tools/tile_m_probe.py > "$OUT/warm-probe$i.log" 2>&1 &
done
wait
echo "warm-up done after $(( $(date +%s) - t0 )) s"; cat "$OUT/racecheck.txt"; tail -1 "$OUT/t-swiglu-large.log"
grep -l -E "Error|Traceback" "$OUT"/warm-*.log | head
timeout 120 python tools/tile_m_probe.py 2>&1 | tee "$OUT/tile_m_probe.log"
echo "probe done after $(( $(date +%s) - t0 )) s"
timeout $(( 560 - ($(date +%s) - t0) )) python -m cute_kernels.bench swiglu quant --out "$OUT" > "$OUT/bench.log" 2>&1
echo "bench exit $? after $(( $(date +%s) - t0 )) s"
grep -E "swiglu|quant|M=" "$OUT/bench.log" | tail -70
