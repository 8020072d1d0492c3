#!/usr/bin/env bash
# Stream-K in the wgmma kernels (plain and fused) and the new split defaults: their GPU tests,
# memcheck / racecheck (sanitize_probe has stream-K launches), then tools/stream_k_probe.py
# (cache filled by one warm-up process per entry first). Few files come back.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session6_stream_k.sh
source "$(dirname "$0")/../device_common.sh"
left() { echo $(( 570 - $(elapsed) )); }
gpu_tests 280 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py \
  tests/test_nvfp4_gemm.py -k "stream_k or public_small_m_split or split or every_tile" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "stream_k or matches_reference or graph" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
for i in 0 1 2 3 4 5 6 7 8 9 10 11; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/stream_k_probe.py > /tmp/logs/warm-sk$i.log 2>&1 &
done
wait
{ echo "tests + sanitizers + warm-up done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -12; done
  tail -1 /tmp/logs/probe.log; grep -A8 Traceback /tmp/logs/probe.log | tail -8
  cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
  grep -h -A10 Traceback /tmp/logs/warm-*.log | tail -12; } > "$OUT/checks.txt" 2>&1
rm -f "$OUT"/memcheck.txt "$OUT"/racecheck.txt
cat "$OUT/checks.txt"
timeout $(left) python tools/stream_k_probe.py > "$OUT/stream_k_probe.log" 2>&1
cat "$OUT/stream_k_probe.log"
echo "done after $(elapsed) s"
