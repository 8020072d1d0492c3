#!/usr/bin/env bash
# The second permuted layout: its GPU tests (bit-identical to packed weights on every kernel
# path, fp64 references) alongside the warm-up of tools/pair3_probe.py, then the probe
# (< 190 s). Usage on the lent H200: source .gpu/setup.sh; bash tools/session11_pair3.sh
source "$(dirname "$0")/device_common.sh"
gpu_tests 150 /tmp/logs/t-pair3.log tests/test_permuted_fp4.py -k "small_m_equals_standard or matches_fp64 or large_m_paths or fused" &
for i in 0 1 2 3 4 5; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 python tools/pair3_probe.py > /tmp/logs/warm-p$i.log 2>&1 &
done
wait
tail -1 /tmp/logs/t-pair3.log; grep -E "^FAILED|^E  " /tmp/logs/t-pair3.log | head -8
grep -h -A8 Traceback /tmp/logs/warm-p*.log | tail -8
echo "tests + warm-up done after $(elapsed) s"
timeout $(( 185 - $(elapsed) )) python tools/pair3_probe.py 2>&1 | tee "$OUT/pair3_probe.log"
echo "done after $(elapsed) s"
