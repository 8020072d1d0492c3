#!/usr/bin/env bash
# Session 38's first call (prepared in session 37, ~500 s): W4A16 under the PDL trigger with
# reorder_k's copy spread (tools/w4a16_spread_probe.py, 17 points, compiled first) beside the
# GPU tests of the spread copy, the trigger chains and the fused op's 9..16-token half-group
# route; the fused op's W4A16 small kernel against half-group pairs at 4..16 tokens and its
# small kernel against the triggered stream-K launch on 9216x7168 at 9..16 NVFP4 tokens
# (tools/fused_narrow_pair_probe.py points 3..9); then the nvfp4_gemm suite on 4096x7168
# (shape 5; the swiglu suite is in session38_third.sh).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 270 /tmp/logs/t-spread.log tests/test_k_order.py tests/test_nvfp4_dequant.py \
  tests/test_pdl_trigger.py &
gpu_tests 270 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k half_group &
warm_points w4a16_spread_probe 200 $(seq 0 16)
warm_points fused_narrow_pair_probe 200 $(seq 3 9)
warm_suite nvfp4_gemm 5
wait
echo "warm-up + tests done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
test_summary | tee "$OUT/checks.txt"
timeout 200 python tools/w4a16_spread_probe.py 2>&1 | tee "$OUT/w4a16_spread_probe.log"
CUTE_KERNELS_BENCH_SHAPES=3,4,5,6,7,8,9 timeout 90 python tools/fused_narrow_pair_probe.py 2>&1 \
  | tee "$OUT/fused_narrow_pair_probe.log"
CUTE_KERNELS_BENCH_SHAPES=5 timeout 120 python -m cute_kernels.bench nvfp4_gemm \
  --out "$OUT/nvfp4_gemm5" > "$OUT/bench-nvfp4_gemm5.log" 2>&1
echo "nvfp4_gemm shape 5 exit $? at $(elapsed) s"
grep -h -E "W4A16|permuted" "$OUT"/bench-*.log | grep -E "M=(1|8|9|16|32|64|128|256) " \
  | cut -c1-180
echo "done after $(elapsed) s"
