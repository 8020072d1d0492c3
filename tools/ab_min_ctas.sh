#!/usr/bin/env bash
# Three CTAs per SM for the small-M register path with 16 accumulators per lane (min_ctas),
# against main's package: the fused GPU tests of those configs, then tools/loop_ab_probe.py
# old / new twice on the fused points at M = 12, 16 (9216x7168 takes (2, 2, 4, 1) there;
# 36864x7168 and 34816x5120 are the controls).
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_min_ctas.sh   (~200 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=few LOOP_MS=12,16 CUTE_KERNELS_BENCH_SHAPES=6,7,8
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "every_tile_config or matches_reference and not large" &
gpu_tests 200 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "fused" &
ab_warm 200
ab_checks
ab_rounds 60
echo "done after $(elapsed) s"
