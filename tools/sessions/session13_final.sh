#!/usr/bin/env bash
# Session 13's last checks: the fused GPU tests with the new 2..8-token configs (permuted words),
# tools/loop_ab_probe.py main's package / the tree's at M = 2, 8 (the plain GEMM's paired-step
# loop at M = 2, the fused rule at 2 and 8), twice, then the swiglu suite for the closing table.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session13_final.sh   (~550 s)
source "$(dirname "$0")/../device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=few LOOP_MS=2,8
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
gpu_tests 300 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "small_m or fused" &
ab_warm 250
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python -m cute_kernels.bench swiglu --out "/tmp/warm-swiglu$i" > "/tmp/logs/warm-swiglu$i.log" 2>&1 &
done
ab_checks
ab_rounds 100
timeout $(( 590 - $(elapsed) )) python -m cute_kernels.bench swiglu --out "$OUT" 2>&1 | tee "$OUT/swiglu.log"
echo "done after $(elapsed) s"
