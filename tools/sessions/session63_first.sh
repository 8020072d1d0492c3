#!/usr/bin/env bash
# Session 63 call 1 (~560 s, prepared in session 62): every GPU test on session 62's rules
# (lanes of up to 32 row tiles; 128-token tiles in lanes on 32 row tiles; the plain GEMM's
# lanes, in place of its hybrid and of 256-token plans from 513 to 2400 tokens on 4096x7168:
# only the five touched test files ran in session 62); then tools/plain_vs_cublas_sweep.py
# (issue 5's M >= 256 bar between the suite's points, every issue 5 shape, 5120x17408 with the
# lanes' bar at 40 row tiles beside) and tools/tile128_lanes_probe.py points 11-15 (1024x7168
# W4A16 at 1030..1400 on the 256-token plans, for a tail-fill rule); memcheck / racecheck on
# tools/sanitize_stream_k_lanes.py beside the tests (lanes of bands of row tiles added, new in
# session 62 and not yet run on a GPU, as are their tests in tests/test_stream_k_lanes.py).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session63_first.sh
source "$(dirname "$0")/../device_common.sh"
# one warm-up process per shape (six token counts each; 42 processes at once would not fit)
warm_points plain_vs_cublas_sweep 400 0,1,2,3,4,5 6,7,8,9,10,11 12,13,14,15,16,17 \
  18,19,20,21,22,23 24,25,26,27,28,29 30,31,32,33,34,35 36,37,38,39,40,41
warm_points tile128_lanes_probe 300 11,12,13,14,15
(sanitize_script sanitize_stream_k_lanes 300 > /tmp/logs/sanitize.txt) &
all_gpu_tests 14 360
report_warm
cat /tmp/logs/sanitize.txt
run_points plain_vs_cublas_sweep 200 $(seq -s, 0 41)
run_points tile128_lanes_probe 100 11,12,13,14,15
echo "done after $(elapsed) s"
