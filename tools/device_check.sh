#!/usr/bin/env bash
# One device call: GPU tests, the demo, compute-sanitizer on small shapes, then the benchmarks.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/device_check.sh [bench args]
set -uo pipefail
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
python -m pytest -m gpu -q -x tests 2>&1 | tail -25 | tee "$OUT/gpu-tests.log"
python -m cute_kernels.demo 2>&1 | tee "$OUT/demo.log"
if command -v compute-sanitizer >/dev/null; then
  for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 python tools/sanitize_probe.py > "$OUT/sanitize-$tool.log" 2>&1
    echo "compute-sanitizer $tool: exit $? ($(grep -c 'ERROR SUMMARY: 0' "$OUT/sanitize-$tool.log") clean summaries)"
  done
fi
python -m cute_kernels.bench --out "$OUT" "$@" 2>&1 | tee "$OUT/bench.log"
