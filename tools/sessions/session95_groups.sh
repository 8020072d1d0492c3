#!/usr/bin/env bash
# Session 94's row groups on either card (~250 s; on an H200 ~60 s more for the suites):
# tools/balanced_row_groups_probe.py (the plain 9216x7168 M = 1 on three row groups, one CTA an
# SM: the public route on NVFP4 tokens since session 94, H200 12.00 -> 11.78 us; bf16 tokens
# unmeasured) and tools/fused_pairs_probe.py (the fused 9216x7168 M = 1 on two up/gate pairs a
# block, probe-only: issue 6's 72.0%, 75% asked), from DRAM, then from L2 (PROBE_L2=1: the
# H100's stand-in for the H200); their GPU tests beside the warm-ups; memcheck and racecheck on
# tools/sanitize_balanced.py (the row-group launches included, a kernel cache of its own); on
# an H200 last the nvfp4_gemm suite at 9216x7168 and the swiglu suite at 9216x7168, M = 1.
# If "fused_24_1" (or another pairs form) wins from DRAM and L2 with equal-enough bits: route it
# (``public_balanced_launch``'s fused answer, a rule beside ``plain_row_group_launch``); if
# "a16_18_1_3" wins: take W4A16 into ``plain_row_group_launch``.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session95_groups.sh
source "$(dirname "$0")/../device_common.sh"
warm_points balanced_row_groups_probe 240 0
warm_points fused_pairs_probe 240 0
if on_h200; then
  warm_at_ms 1 nvfp4_gemm 4
  warm_at_ms 1 swiglu 1
fi
gpu_tests 300 /tmp/logs/t-groups.log tests/test_nvfp4_gemm_balanced.py -k "row_group or pairs" &
report_warm_and_tests
run_points balanced_row_groups_probe 90 0
run_points fused_pairs_probe 90 0
echo "from L2 after $(elapsed) s"
PROBE_L2=1 run_points balanced_row_groups_probe 90 0
PROBE_L2=1 run_points fused_pairs_probe 90 0
echo "sanitizers after $(elapsed) s"
CUTE_KERNELS_CACHE_DIR=/tmp/kc-san sanitize_script sanitize_balanced 200
if on_h200; then
  export CUTE_KERNELS_BENCH_MS=1
  run_suite nvfp4_gemm 60 4
  run_suite swiglu 60 1
  suite_lines 1
  python -m cute_kernels.bench.targets "$OUT" --open
fi
echo "done after $(elapsed) s"
