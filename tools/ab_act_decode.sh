#!/usr/bin/env bash
# Session 14, call 1: the small-M operand change (fp4 operands times scale * 2^118 in one
# multiply, non-permuted words by multiply; commit fc584be, package copy ab_nt/) and the scale
# table in the register path (the tree) against main (ab_main/): small-M GEMM / fused /
# permuted GPU tests (the paired-step and every-scale-byte tests among them), memcheck, then
# tools/loop_ab_probe.py at M = 8 / 16 for each package, outputs compared bit for bit.
# Before the call, on the CPU: mkdir -p ab_main ab_nt; git archive main cute_kernels layouts |
#   tar -x -C ab_main; git archive fc584be cute_kernels layouts | tar -x -C ab_nt
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_act_decode.sh   (~560 s)
source "$(dirname "$0")/device_common.sh"
for d in ab_main ab_nt; do [ -d $d/cute_kernels ] || { echo "$d/cute_kernels missing"; exit 2; }; done
export LOOP_POINTS=few LOOP_MS=${LOOP_MS:-8,16}
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "not large and not stream_k and not split_k_route and not hybrid" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
gpu_tests 280 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "small_m or matches_fp64 or fused" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
ab_warm 270 ab_main ab_nt .
ab_checks
ab_rounds 90 1 ab_main ab_nt .
echo "done after $(elapsed) s"
