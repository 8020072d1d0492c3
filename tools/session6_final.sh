#!/usr/bin/env bash
# Session 6, last device call: all GPU tests of the GEMM, fused and model layers (stream-K,
# small-M split defaults), memcheck and racecheck, then (cache filled by parallel warm-up
# processes) tools/concurrency_probe.py, the swiglu suite, the demo, and the nvfp4_gemm suite
# shape by shape until the time is up. Few files come back: checks.txt, concurrency.log,
# bench-swiglu.log, demo.log, bench-gemm.log.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session6_final.sh
source "$(dirname "$0")/device_common.sh"
left() { echo $(( 555 - $(elapsed) )); }
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
tests() { gpu_tests 280 "/tmp/logs/t-$(basename "$1" .py).log" "$@"; }
tests tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
tests tests/test_nvfp4_gemm_swiglu_quant.py &
tests tests/models tests/test_nvfp4_quant.py &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > /tmp/logs/warm-gemm$i.log 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python tools/concurrency_probe.py > /tmp/logs/warm-conc.log 2>&1 &
wait
{ echo "warm-up + tests done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
  grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head; } > "$OUT/checks.txt" 2>&1
rm -f "$OUT"/sanitize-*.log "$OUT"/memcheck.txt "$OUT"/racecheck.txt
cat "$OUT/checks.txt"
timeout 60 python tools/concurrency_probe.py > "$OUT/concurrency.log" 2>&1; cat "$OUT/concurrency.log"
timeout $(left) python -m cute_kernels.bench swiglu --out /tmp/bench-swiglu > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
timeout $(left) python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"
for i in 0 1 2 3 4 5 6; do
  [ "$(left)" -gt 20 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout $(left) python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm$i >> "$OUT/bench-gemm.log" 2>&1; echo "gemm shape $i exit $? at $(elapsed) s"
done
grep -E "M=1 |M=64 " "$OUT/demo.log" | head
