#!/usr/bin/env bash
# Session 89: the fused one-token epilogue's tail on by default (``PADDING_WORDS``: the scale
# padding past M as whole words in every fused small-M launch; ``EPILOGUE_TABLE``: the
# out_scale table in the balanced launch): the fused GPU tests (401: the fused, balanced,
# model, lane-column, 8-token-tile and swapped files, 8 shards), memcheck / racecheck on
# tools/sanitize_balanced.py and memcheck on tools/sanitize_probe.py alongside, then
# tools/fused_gap_probe.py ("fused" is now the new tail; "bytepad" / "divide" / "old" the old one).
# On an H200 also the swiglu suite at 9216x7168 (issue 6's M = 1 row) with the targets.
# ~420 s on an H100, ~570 on an H200.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_tail.sh
source "$(dirname "$0")/../device_common.sh"
for tool in memcheck racecheck; do
  timeout 240 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
    python tools/sanitize_balanced.py > "$OUT/$tool-balanced.log" 2>&1 &
done
timeout 240 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  python tools/sanitize_probe.py > "$OUT/memcheck-probe.log" 2>&1 &
if on_h200; then warm_suite swiglu 1; fi
all_gpu_tests 8 330 tests/test_nvfp4_gemm_swiglu_quant.py tests/test_nvfp4_gemm_balanced.py \
  tests/models tests/test_lane_columns.py tests/test_fused_tile8.py \
  tests/test_swiglu_quant_swapped.py
for f in "$OUT"/*check-*.log; do
  echo "$(basename "$f"): $(grep -E "SUMMARY|probe ran" "$f" | tr '\n' ' ')"
done
warm_points fused_gap_probe 200 0
report_warm
run_points fused_gap_probe 100 0
if on_h200; then
  run_suite swiglu 150 1
  grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
  python -m cute_kernels.bench.targets "$OUT" --open
fi
echo "done after $(elapsed) s"
