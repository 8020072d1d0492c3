#!/usr/bin/env bash
# Session 38's fourth call (~450 s): the routes of session 38's first three calls, as routed
# (W4A16 4096x7168 at 4..8 tokens on the wgmma launch and 7168x2048 on two row tiles; the fused
# op's W4A16 9..16 tokens on half-group pairs, NVFP4 9216x7168 9..16 on the triggered "narrow"
# route, narrow_pdl_plan), their GPU tests, then the points they left unmeasured:
# fused_narrow_pair_probe 14..17 (narrow_pdl_plan's trigger where unmeasured) and
# pass_spread_probe 26..29 (nvfp4_gemm's stream-K at 16 / 32 tokens with more tiles than CTAs
# under the trigger), and the suites on the changed shapes (nvfp4_gemm 4096x7168 / 7168x2048,
# swiglu 9216x7168 / 4096x7168).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_fourth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 280 /tmp/logs/t-trigger.log tests/test_pdl_trigger.py &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "half_group_route_at or narrow_route_at or w4a16" &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "w4a16 or 7168-2048" &
warm_points fused_narrow_pair_probe 200 14 15 16 17
warm_points pass_spread_probe 200 26 27 28 29
warm_suite nvfp4_gemm 5 6
warm_suite swiglu 1 3
wait
echo "warm-up + tests done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
test_summary | tee "$OUT/checks.txt"
CUTE_KERNELS_BENCH_SHAPES=14,15,16,17 timeout 90 python tools/fused_narrow_pair_probe.py 2>&1 \
  | tee "$OUT/fused_narrow_pair_probe.log"
CUTE_KERNELS_BENCH_SHAPES=26,27,28,29 timeout 90 python tools/pass_spread_probe.py 2>&1 \
  | tee "$OUT/pass_spread_probe.log"
run_suite nvfp4_gemm 120 5 6
run_suite swiglu 120 1 3
grep -h -E "W4A16|permuted" "$OUT"/bench-nvfp4_gemm*.log | grep -E "M=(1|4|8|16|32|64) " \
  | cut -c1-175
grep -h "permuted M=" "$OUT"/bench-swiglu*.log | grep -E "M=(1|8|16|64) " | cut -c1-175
echo "done after $(elapsed) s"
