#!/usr/bin/env bash
# Session 42's fifth call (~200 s): memcheck on the row-group launches (API errors off: the
# driver lookups of cuda-python report as errors), then the nvfp4_gemm suite's 9216x7168
# (issue 5's near miss at M = 4 / 8; the switch probe had the public route at 14.60 / 14.68,
# the bar 14.70).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 4
timeout 150 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  python tools/sanitize_row_groups.py > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $?: $(grep -E "SUMMARY|probe ran" "$OUT/memcheck.log" | tr '\n' ' ')"
wait
echo "warm-up done after $(elapsed) s"
run_suite nvfp4_gemm 100 4
suite_lines
echo "done after $(elapsed) s"
