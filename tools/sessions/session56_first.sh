#!/usr/bin/env bash
# Session 56 (~400 s, prepared in session 55): the GPU tests session 55's last call left
# unrun (test_scatter_pieces with the cluster pairs on 128-row tiles, added after it;
# test_silu_mul, test_swiglu_quant_swapped), memcheck / racecheck on the sanitize probe (the
# pairs added), and tools/pieces_fixup_probe.py with the pairs beside the scattered pieces
# (1024x7168 M = 1024 and 4096x7168 M = 256: two pieces). If "fused_pair" beats "fused" at
# M = 1024, route "pieces" plans of two splits to pair_pieces (route_launch) and re-run the
# swiglu suite's 1024x7168 shape; issue 6 asks >= 1x cuBLAS + silu there (29.1 us). Then
# tools/pieces_route_probe.py: do the scattered pieces now beat the 64-row-tile routes at
# 4096x7168 M = 65..256 (nvfp4_gemm and the fused op)?
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session56_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pieces_fixup_probe 300 0 1 2 3 4
warm_points pieces_route_probe 300 0 1 2 3
sanitize_both
gpu_tests 300 /tmp/logs/t-scatter.log tests/test_scatter_pieces.py &
gpu_tests 300 /tmp/logs/t-rest.log tests/test_silu_mul.py tests/test_swiglu_quant_swapped.py &
report_warm_and_tests
cat "$OUT"/memcheck.txt "$OUT"/racecheck.txt 2>/dev/null
run_points pieces_fixup_probe 250 0 1 2 3 4
run_points pieces_route_probe 150 0 1 2 3
echo "done after $(elapsed) s"
