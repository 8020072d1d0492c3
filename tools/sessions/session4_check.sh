#!/usr/bin/env bash
# Session 4, device call 1: GPU tests (three pytest processes), both sanitizers, the demo.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session4_check.sh
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader | tee "$OUT/gpu.txt"
tests() { timeout 330 python -m pytest -m gpu -q -p no:cacheprovider "$@" > "$OUT/t-$(basename "$1" .py).log" 2>&1; }
tests tests/test_nvfp4_gemm_swiglu_quant.py & p1=$!
tests tests/test_nvfp4_quant.py tests/test_silu_mul.py tests/models tests/test_examples.py & p2=$!
tests tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm.py & p3=$!
for tool in memcheck racecheck; do
  timeout 160 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
    python tools/sanitize_probe.py > "$OUT/sanitize-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" | tail -1) $(grep -c 'probe ran' "$OUT/sanitize-$tool.log") probes"
done
wait $p1 $p2 $p3
timeout 150 python -m models.demo --plot "$OUT/demo_mlp.png" > "$OUT/demo.log" 2>&1; echo "demo exit $?"
tail -25 "$OUT/demo.log"
for f in "$OUT"/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR" "$f" | head -6; done
