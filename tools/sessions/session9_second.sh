#!/usr/bin/env bash
# Next session's second device call: tools/fused_large_m_probe.py (where the fused kernel is
# slower than the pair at large M) and the nvfp4_gemm suite, both warmed in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session9_second.sh
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4 5 6 7; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/fused_large_m_probe.py > /tmp/logs/warm-flm$i.log 2>&1 &
done
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > /tmp/logs/warm-gemm$i.log 2>&1 &
done
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 150 python tools/fused_large_m_probe.py 2>&1 | tee "$OUT/fused_large_m.log"
for i in 0 1 2 3 4 5 6; do
  left=$(( 580 - $(elapsed) )); [ "$left" -gt 20 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
done
