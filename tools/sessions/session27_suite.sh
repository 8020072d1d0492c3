#!/usr/bin/env bash
# Session 27, call 3 (<= 560 s): the fused op's GPU tests on the packed-words rule (register
# prefetch at 2..16 tokens, the small-M kernel at 9..16), then the swiglu suite (4096x7168,
# 36864x7168, 34816x5120, 9216x7168, 1024x7168: packed and permuted rows), then the W4A16
# half of tools/packed_prefetch_probe.py if time is left.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_suite.sh
source "$(dirname "$0")/../device_common.sh"
for i in 3 0 4 1 2; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
for i in 0 1 2 3 4; do
  CUTE_KERNELS_PROBE_BF16=1 CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 \
    python tools/packed_prefetch_probe.py > /tmp/logs/warm-w4a16-$i.log 2>&1 &
done
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
wait
echo "warm-up + tests done after $(elapsed) s: fused tests $(tail -1 /tmp/logs/t-fused.log)"
grep -E "^FAILED|^ERROR|^E  " /tmp/logs/t-fused.log | head -10
grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
budget=480
for i in 3 0 4 1 2; do
  left=$(( budget - $(elapsed) )); [ "$left" -gt 25 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout "$left" python -m cute_kernels.bench swiglu --out /tmp/swiglu$i >> "$OUT/bench-swiglu.log" 2>&1; echo "swiglu shape $i exit $? at $(elapsed) s"
done
left=$(( 555 - $(elapsed) ))
[ "$left" -gt 30 ] && CUTE_KERNELS_PROBE_BF16=1 timeout "$left" python tools/packed_prefetch_probe.py 2>&1 | tee "$OUT/w4a16.log"
echo "done after $(elapsed) s"
grep -E "M=(1|8|16|64) " "$OUT/bench-swiglu.log" | cut -c1-200 | head -50
