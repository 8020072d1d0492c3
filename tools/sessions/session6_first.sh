#!/usr/bin/env bash
# Next session's first device call: split-K in the small-M kernels (plain and fused) and the
# fused op's fp32 split route (all written in session 5, not yet run on a GPU): their tests,
# the sanitizers, then tools/small_split_probe.py and tools/swiglu_split_probe.py (cache
# filled by one warm-up process per shape first). Few files come back: checks.txt, the logs.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session6_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-small.log -k "every_tile_config or split" tests/test_nvfp4_gemm.py &
gpu_tests 300 /tmp/logs/t-fused.log -k "split_route or every_tile_config" tests/test_nvfp4_gemm_swiglu_quant.py &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python tools/small_split_probe.py > /tmp/logs/warm-split$i.log 2>&1 &
done
for i in 0 1 2; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python tools/swiglu_split_probe.py > /tmp/logs/warm-route$i.log 2>&1 &
done
wait
{ echo "tests + sanitizers + warm-up done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
  grep -h -A10 Traceback /tmp/logs/warm-*.log | tail -12; } > "$OUT/checks.txt" 2>&1
rm -f "$OUT"/sanitize-*.log "$OUT"/memcheck.txt "$OUT"/racecheck.txt
timeout 200 python tools/small_split_probe.py > "$OUT/small_split_probe.log" 2>&1
timeout 120 python tools/swiglu_split_probe.py > "$OUT/swiglu_split_probe.log" 2>&1
cat "$OUT/small_split_probe.log" "$OUT/swiglu_split_probe.log" "$OUT/checks.txt"
echo "done after $(elapsed) s"
