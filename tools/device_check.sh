#!/usr/bin/env bash
# One device call: the GPU tests (three pytest processes at once: compiling dominates, and the
# device has 16 cores), compute-sanitizer memcheck alongside, then the demo and the benchmarks.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/device_check.sh [bench suites/args]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
tests() { timeout 420 python -m pytest -m gpu -q -p no:cacheprovider "$@" > "$OUT/t-$(basename "$1" .py).log" 2>&1; }
tests tests/test_nvfp4_gemm.py tests/test_gemv.py & p1=$!
tests tests/test_nvfp4_gemm_swiglu_quant.py & p2=$!
tests tests/test_nvfp4_quant.py tests/test_nvfp4_gemm_large_m.py tests/test_silu_mul.py \
  tests/test_gdn_split.py tests/test_nvfp4_dequant.py tests/models tests/test_examples.py \
  tests/test_bench_copy.py tests/test_jit_cache.py & p3=$!
for tool in memcheck racecheck; do
  timeout 200 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
    python tools/sanitize_probe.py > "$OUT/sanitize-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tail -1)"
done
wait $p1 $p2 $p3
for f in "$OUT"/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED" "$f" | head -5; done
python -m models.demo --plot "$OUT/demo_mlp.png" 2>&1 | tee "$OUT/demo.log"
python -m cute_kernels.bench --out "$OUT" "$@" 2>&1 | tee "$OUT/bench.log"
