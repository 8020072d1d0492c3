#!/usr/bin/env bash
# Session 3, last device call: the GPU tests of everything new (three pytest processes at once:
# compiling dominates), memcheck alongside, then the measurements for the notes.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
run_tests() { timeout 190 python -m pytest -m gpu -q -p no:cacheprovider "$@" > "$OUT/t-$(basename "$1" .py).log" 2>&1; }
run_tests tests/test_nvfp4_gemm.py & p1=$!
run_tests tests/test_nvfp4_gemm_swiglu_quant.py & p2=$!
run_tests tests/test_nvfp4_quant.py tests/models tests/test_nvfp4_gemm_large_m.py & p3=$!
timeout 150 compute-sanitizer --tool memcheck --report-api-errors no python tools/sanitize_probe.py > "$OUT/memcheck.log" 2>&1
echo "memcheck: $(grep 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) $(grep -c 'probe ran' "$OUT/memcheck.log") probes ran"
wait $p1 $p2 $p3
for f in "$OUT"/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|Error" "$f" | head -5; done
timeout 55 python tools/quant_probe.py 2>&1 | grep -E "sweep|TB/s" | tee "$OUT/quant.log"
FUSED_MS=1 LARGE_SHAPES=2 LARGE_MS=64,256,1024,4096 timeout 70 python tools/gemm_probe3.py fused fusedlarge 2>&1 | grep -E "^fused|failed" | tee "$OUT/probe3.log"
timeout 90 python -m models.demo --m 1 8 --plot "$OUT/demo_mlp.png" 2>&1 | tail -22 | tee "$OUT/demo.log"
