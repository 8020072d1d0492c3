#!/usr/bin/env bash
# Session 99 on a short budget (~300 s on a cold machine), either card: the late pieces' GPU
# tests and tools/late_pieces_probe.py at four of issue 5's points (9216x7168 M = 16 / 8,
# 5120x17408 M = 16, 7168x18432 M = 16); on an H200 then the nvfp4_gemm suite's 9216x7168
# M = 1 row with the row-group route (session97_near.sh's first row).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session99_short.sh
source "$(dirname "$0")/../device_common.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
warm_points late_pieces_probe 200 0 1 2 4
gpu_tests 240 /tmp/logs/t-late.log tests/test_async_fixup.py -k late &
on_h200 && warm_at_ms 1 nvfp4_gemm 4
report_warm_and_tests
run_points late_pieces_probe 100 0 1 2 4
if on_h200; then
  CUTE_KERNELS_BENCH_MS=1 run_suite nvfp4_gemm 60 4
  suite_lines "1"
  python -m cute_kernels.bench.targets "$OUT" --open
fi
echo "done after $(elapsed) s"
