#!/usr/bin/env bash
# A small-M loop change against main's package: the small-M GPU tests, memcheck,
# tools/loop_ab_probe.py old / new twice on the "few" points, then the demo.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main   (ab_main/ is untracked, so it travels with the tree)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_loop.sh
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=${LOOP_POINTS:-few}
gpu_tests 260 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "not large and not stream_k and not split_k_route and not hybrid" &
gpu_tests 260 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
gpu_tests 260 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "small_m or matches_fp64 or fused" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
ab_checks
ab_rounds 150
timeout $(( 530 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek|Qwen" "$OUT/demo.log"
