#!/usr/bin/env bash
# Session 45, call 5 (~330 s): the rest of the GPU tests the stream-K fix-up change reaches
# (the wg_k_split kernels, whose fix-up runs on warpgroup 0 alone; the public GEMM's stream-K,
# hybrid and split-K routes; the permuted large-M paths; PDL triggers), memcheck + racecheck,
# then main's package (ab_main/) against the tree at 64 tokens: tools/loop_ab_probe.py on the
# GEMM 7168x18432 / 9216x7168 and the fused 36864x7168 / 9216x7168, two rounds.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session45_checks.sh
source "$(dirname "$0")/../device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/ missing"; exit 2; }
export LOOP_MS=64
SHAPES=(0 4 7 9)
gpu_tests 300 /tmp/logs/t-wgk.log tests/test_wg_k_split.py tests/test_pdl_trigger.py &
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py \
  -k "stream or hybrid or split_k or packed or graph or deterministic" &
gpu_tests 300 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "large_m" &
sanitize_both
ab_warm_points 280 "${SHAPES[*]}" ab_main .
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
export CUTE_KERNELS_BENCH_SHAPES=$(IFS=,; echo "${SHAPES[*]}")
ab_rounds 60 2
echo "done after $(elapsed) s"
