#!/usr/bin/env bash
# Session 27, call 4 (~300 s): the fused op's GPU tests that cover the small-M rule change
# (public narrow route on packed words, reference matches, every tile config), then
# tools/packed_prefetch_probe.py with bf16 activations on permuted words (the rule now keeps
# the prefetch off with two token tiles there too: unmeasured before) and on packed words (the
# rule as changed after call 3).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_w4a16.sh
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4; do
  CUTE_KERNELS_PROBE_PERMUTED=1 CUTE_KERNELS_PROBE_BF16=1 CUTE_KERNELS_BENCH_WARM=1 \
    CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/packed_prefetch_probe.py \
    > /tmp/logs/warm-perm-$i.log 2>&1 &
done
for i in 0 2; do
  CUTE_KERNELS_PROBE_BF16=1 CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 \
    python tools/packed_prefetch_probe.py > /tmp/logs/warm-packed-$i.log 2>&1 &
done
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "narrow_route or matches_reference or every_tile_config or small_m" &
wait
echo "warm-up + tests done after $(elapsed) s: fused tests $(tail -1 /tmp/logs/t-fused.log)"
grep -E "^FAILED|^ERROR|^E  " /tmp/logs/t-fused.log | head -10
grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
CUTE_KERNELS_PROBE_PERMUTED=1 CUTE_KERNELS_PROBE_BF16=1 timeout 120 python tools/packed_prefetch_probe.py 2>&1 | tee "$OUT/w4a16-permuted.log"
CUTE_KERNELS_PROBE_BF16=1 CUTE_KERNELS_BENCH_SHAPES=0,2 timeout 60 python tools/packed_prefetch_probe.py 2>&1 | tee "$OUT/w4a16-packed.log"
echo "done after $(elapsed) s"
