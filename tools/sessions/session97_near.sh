#!/usr/bin/env bash
# The open H200 rows a short call can still flip (an H200 only: on an H100 it stops at once;
# ~200 s on a cold machine), in the order a cut budget should keep them:
# - the nvfp4_gemm suite's 9216x7168 M = 1 row with session 94's row-group route (73.7% before
#   it, ~75.1% expected, 75% asked; W4A16 73.2% in the same run): session96_m1_row.sh;
# - the near-miss rows measured once since sessions 86-88: the swiglu suite at 1024x7168
#   M = 1024 (W4A16 0.99x cuBLAS + silu, 1x asked), the nvfp4_gemm suites at 7168x2048 M = 256
#   (W4A16 0.88x cuBLAS, 0.9x asked) and 7168x18432 M = 16 / 32 (1.46 / 1.47x QuACK, 1.5x).
# All warmed first, side by side (CUTE_KERNELS_BENCH_MS: only those token counts compile).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session97_near.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_at_ms 1 nvfp4_gemm 4
near_miss_warm
report_warm
near_rows_run
echo "done after $(elapsed) s"
