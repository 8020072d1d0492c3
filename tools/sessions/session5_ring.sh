#!/usr/bin/env bash
# Session 5, second device call: the small-M kernels' cp.async ring (prefetch >= 2).
#  * config tests of both small-M kernels (ring configs included), the split-K route test;
#  * compute-sanitizer memcheck and racecheck on tools/sanitize_probe.py (ring launches added);
#  * tools/ring_probe.py: ring configs against the defaults at M = 1, 4, 8, 16.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session5_ring.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-configs.log -k "every_tile_config or split_k_route" \
  tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_swiglu_quant.py &
(timeout 200 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200 & sanitize racecheck 250 & wait) &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python tools/ring_probe.py > /tmp/logs/warm-ring$i.log 2>&1 &
done
wait
echo "tests + sanitizers + warm-up done after $(elapsed) s"
grep -h -A12 Traceback /tmp/logs/warm-*.log | tail -14
timeout 200 python tools/ring_probe.py > "$OUT/ring_probe.log" 2>&1
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^E  " "$f" | head -8; done
  tail -1 /tmp/logs/probe.log; cat "$OUT"/memcheck.txt "$OUT"/racecheck.txt; } > "$OUT/checks.txt"
cat "$OUT/ring_probe.log" "$OUT/checks.txt"
echo "done after $(elapsed) s"
