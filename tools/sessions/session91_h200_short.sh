#!/usr/bin/env bash
# session91_h200.sh cut for a short budget (an H200 only: on an H100 it stops at once; ~200 s):
# only the open rows' token counts (CUTE_KERNELS_BENCH_MS, so a cold machine compiles only
# those launches): the nvfp4_gemm suites at 5120x17408 (W4A16 M = 1 74.4%, 75% asked; the
# under-staging rule there since session 90; M = 8 / 16 60% asked) and 9216x7168 (M = 1 73.3%,
# M = 4..16 60% asked), the swiglu suite at 9216x7168 M = 1 (67.0% before sessions 89-91's
# tail, table and under-staging); first tools/staging_cost_probe.py point 1 (the plain
# 9216x7168 under the staging, ~40 s: the H200 decides UNDER_STAGING_MIN_WALK; if it wins
# there as on the H100 from DRAM, -6.5%, both M = 1 rows at 9216x7168 would pass); last the
# 9216x7168 suite's M = 1 rows with that rule as a candidate (UNDER_STAGING_MIN_WALK = 3,
# tools/suite_with_rule.py, its own kernel cache; $OUT/candidate-*: rows for notes/raw only
# if the rule lands).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session91_h200_short.sh
source "$(dirname "$0")/../device_common.sh"
only_on_h200
short91_warm
report_warm
# (in the order of what a cut budget should keep)
run_points staging_cost_probe 60 1
export CUTE_KERNELS_BENCH_MS=1,4,8,16
run_suite nvfp4_gemm 80 1
suite_lines "1|4|8|16"
export CUTE_KERNELS_BENCH_MS=1
run_suite swiglu 60 1
grep -h "permuted M=1 " "$OUT"/bench-swiglu1.log | cut -c1-175
export CUTE_KERNELS_BENCH_MS=1,4,8,16
SUITE_SECONDS=80 suite_targets nvfp4_gemm "1|4|8|16" 4
python -m cute_kernels.bench.targets "$OUT" --open
export CUTE_KERNELS_BENCH_MS=1 CUTE_KERNELS_BENCH_SHAPES=4
CUTE_KERNELS_CACHE_DIR=/tmp/kc-rule timeout 180 python tools/suite_with_rule.py \
  cute_kernels.nvfp4_gemm_balanced:NVFP4GemmOneTokenBalanced.UNDER_STAGING_MIN_WALK=3 -- \
  nvfp4_gemm --out "$OUT/candidate-minwalk3" > "$OUT/candidate-minwalk3.log" 2>&1
grep -h "permuted M=1 " "$OUT/candidate-minwalk3.log" | cut -c1-175
echo "done after $(elapsed) s"
