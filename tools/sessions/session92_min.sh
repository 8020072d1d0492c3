#!/usr/bin/env bash
# The least an H200 call can decide on ~150 s (an H200 only: on an H100 it stops at once):
# tools/staging_cost_probe.py point 1 (the plain 9216x7168 under the token staging, NVFP4 and
# bf16 tokens: whether UNDER_STAGING_MIN_WALK comes down to 3), then the nvfp4_gemm suites'
# M = 1 rows at 9216x7168 and 5120x17408 (the under-staging rule of session 90: W4A16 74.4%,
# 75% asked), all warmed side by side first.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session92_min.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
warm_points staging_cost_probe 200 1
warm_at_ms 1 nvfp4_gemm 4 1
report_warm
export CUTE_KERNELS_BENCH_MS=1
run_points staging_cost_probe 60 1
run_suite nvfp4_gemm 60 4 1
suite_lines 1
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
