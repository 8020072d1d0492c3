#!/usr/bin/env bash
# Session 38's fifth call (~480 s): nvfp4_gemm's stream-K launches with more tiles than CTAs
# at 16 / 32 tokens (36864x7168, 34816x5120) now trigger without the spread pass
# (pdl_trigger_plan): their graph-chain GPU test, the fused op's same launch with the trigger
# alone against with the spread pass (fused_narrow_pair_probe points 10, 11), then the suites
# on those two weights (nvfp4_gemm shapes 2, 3; swiglu shapes 0, 4).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_fifth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 280 /tmp/logs/t-trigger.log tests/test_pdl_trigger.py -k "more_tiles" &
warm_points fused_narrow_pair_probe 200 10 11
warm_suite nvfp4_gemm 2 3
warm_suite swiglu 0 4
wait
echo "warm-up + tests done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
test_summary | tee "$OUT/checks.txt"
CUTE_KERNELS_BENCH_SHAPES=10,11 timeout 60 python tools/fused_narrow_pair_probe.py 2>&1 \
  | tee "$OUT/fused_narrow_pair_probe.log"
run_suite nvfp4_gemm 100 2 3
run_suite swiglu 90 0 4
grep -h "permuted" "$OUT"/bench-nvfp4_gemm*.log | grep -E "M=(1|8|16|32|64) " | cut -c1-175
grep -h "permuted M=" "$OUT"/bench-swiglu*.log | grep -E "M=(1|8|16|64) " | cut -c1-175
echo "done after $(elapsed) s"
