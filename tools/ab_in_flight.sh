#!/usr/bin/env bash
# Session 14, call 4: two steps in flight in the paired-step loop (the tree) against one (ab_one/:
# the tree with PAIRED_TWO_IN_FLIGHT = False) and main (ab_main/): the paired-step, every-scale-
# byte and tile-config GPU tests, memcheck, 7168x18432 M = 1 / 2 twice, then the demo.
# Before the call, on the CPU: ab_main/ = git archive main; ab_one/ = the tree's package with
# the flag off.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_in_flight.sh   (~300 s)
source "$(dirname "$0")/device_common.sh"
for d in ab_main ab_one; do [ -d $d/cute_kernels ] || { echo "$d/cute_kernels missing"; exit 2; }; done
export LOOP_POINTS=few LOOP_MS=1,2 CUTE_KERNELS_BENCH_SHAPES=0
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "paired or every_scale_byte or every_tile or fixed_row" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
ab_warm 270 ab_main ab_one .
python -m models.demo > /tmp/logs/demo-warm.log 2>&1 &
ab_checks
ab_rounds 60 2 ab_main ab_one .
timeout $(( 560 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek|Qwen" "$OUT/demo.log"
