#!/usr/bin/env bash
# Session 14: PDL for the paired-step loop, CTAs held to two per SM (the tree), against the same
# loop without PDL (ab_nopdl/, commit f7b2a39) and main (ab_main/): the paired-step, graph-chain
# and every-scale-byte GPU tests, memcheck, 7168x18432 M = 1 / 2 twice, then the demo.
# Before the call, on the CPU: ab_main/ = git archive main; ab_nopdl/ = git archive f7b2a39.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_paired_pdl.sh   (~300 s)
source "$(dirname "$0")/device_common.sh"
for d in ab_main ab_nopdl; do [ -d $d/cute_kernels ] || { echo "$d/cute_kernels missing"; exit 2; }; done
export LOOP_POINTS=few LOOP_MS=1,2 CUTE_KERNELS_BENCH_SHAPES=0
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "paired or chain or graph or every_scale_byte or alpha" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
ab_warm 270 ab_main ab_nopdl .
python -m models.demo > /tmp/logs/demo-warm.log 2>&1 &
ab_checks
ab_rounds 60 2 ab_main ab_nopdl .
timeout $(( 560 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek" "$OUT/demo.log"
