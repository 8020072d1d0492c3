#!/usr/bin/env bash
# session91_h200_short.sh, then the near-miss rows measured once since session 86-88 (an H200
# only: on an H100 it stops at once; ~350 s): the swiglu suite at 1024x7168 M = 1024 (W4A16
# 0.99x cuBLAS + silu, 1x asked), the nvfp4_gemm suites at 7168x2048 M = 256 (W4A16 0.88x
# cuBLAS, 0.9x asked) and 7168x18432 M = 16 / 32 (1.46 / 1.47x QuACK, 1.5x asked). All warmed
# first, side by side (CUTE_KERNELS_BENCH_MS: only those token counts compile).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session92_h200.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
near_miss_warm
# the short script's own warm-ups too, all side by side, done before anything is timed (its
# warm-ups then find the kernel cache full)
short91_warm
report_warm
bash "$(dirname "$0")/session91_h200_short.sh"
echo "near-miss rows from $(elapsed) s"
near_miss_rows
suite_lines "16|32|256"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
