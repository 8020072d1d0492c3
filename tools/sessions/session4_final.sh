#!/usr/bin/env bash
# Session 4, last device call: GPU tests of what changed, memcheck, then (cache filled by
# parallel warm-up processes) the swiglu suite, the demo, and the nvfp4_gemm suite shape by
# shape until the time is up.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session4_final.sh
source "$(dirname "$0")/../device_common.sh"
left() { echo $(( 575 - $(elapsed) )); }
sanitize memcheck 200 &
tests() { gpu_tests 260 "$OUT/t-$(basename "$1" .py).log" "$@"; }
tests tests/test_nvfp4_gemm_swiglu_quant.py &
tests tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
tests tests/models tests/test_nvfp4_quant.py &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > "$OUT/warm-swiglu$i.log" 2>&1 &
done
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench nvfp4_gemm --out /tmp/warmg$i > "$OUT/warm-gemm$i.log" 2>&1 &
done
wait
echo "warm-up + tests done after $(( $(date +%s) - t0 )) s"; cat "$OUT/memcheck.txt"
grep -l -E "Error|Traceback" "$OUT"/warm-*.log | head
for f in "$OUT"/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR" "$f" | head -6; done
timeout $(left) python -m cute_kernels.bench swiglu --out "$OUT" > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(( $(date +%s) - t0 )) s"
timeout $(left) python -m models.demo --plot "$OUT/demo_mlp.png" > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(( $(date +%s) - t0 )) s"
for i in 2 3 0 4 1 5 6; do
  [ "$(left)" -gt 20 ] || break
  CUTE_KERNELS_BENCH_SHAPES=$i timeout $(left) python -m cute_kernels.bench nvfp4_gemm --out "$OUT/gemm$i" > "$OUT/bench-gemm$i.log" 2>&1; echo "gemm shape $i exit $? at $(( $(date +%s) - t0 )) s"
done
grep -E "M=(1|16|64|256) " "$OUT/bench-swiglu.log" | cut -c1-200 | head -24
grep -E "M=1 |M=64 " "$OUT/demo.log"
