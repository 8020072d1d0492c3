#!/usr/bin/env bash
# Session 31's tenth call (~350 s; session 32's first call since): grid decode on the GPU
# (experimental, not routed): its bit tests against the pass (plain and fused, registers and
# the cp.async ring, one and two waves, three launches each: the flags reset),
# tools/grid_decode_probe.py (public / pass / grid / ring / ready, points 0..4: M = 16384 is
# four waves), then memcheck on the small bit tests (API errors hidden, as
# device_common.sh's sanitize).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session31_tenth.sh
source "$(dirname "$0")/device_common.sh"
warm_points grid_decode_probe 240 0 1 2 3 4
gpu_tests 300 /tmp/logs/t-grid.log tests/test_grid_decode.py &
wait
test_summary | tee "$OUT/checks.txt"
grep -h -B2 -A12 "Error\|Traceback" /tmp/logs/t-grid.log | head -40
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3,4 timeout 150 python tools/grid_decode_probe.py 2>&1 \
  | tee "$OUT/grid_decode_probe.log"
timeout 60 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  python -m pytest -q -m gpu \
  -p no:cacheprovider tests/test_grid_decode.py -k "200" > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1)"
echo "done after $(elapsed) s"
