#!/usr/bin/env bash
# Session 31's third call (~450 s): the wide pieces (``large_m_plans.wide_pieces``: one wave
# of whole 64-token tiles taken as 128-token tiles in two K pieces) against the reference on a
# GPU (plain and fused public routes), tools/split_fixup_probe.py points 20..25 (the rule's
# unmeasured neighbours; 64-token pieces for the fused op on 4096x7168 at 96 / 128 tokens),
# then the nvfp4_gemm suite on 4096x7168 and the swiglu suite on 1024x7168 and 4096x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_third.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py \
  -k "wide_pieces or split_k_route or hybrid_route" &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "large_m_matches_reference" &
warm_points split_fixup_probe 250 $(seq 20 25)
warm_suite nvfp4_gemm 5
warm_suite swiglu 2 3
report_checks
CUTE_KERNELS_BENCH_SHAPES=$(seq -s, 20 25) timeout 150 python tools/split_fixup_probe.py 2>&1 \
  | tee "$OUT/split_fixup_probe.log"
CUTE_KERNELS_BENCH_SHAPES=5 timeout 120 python -m cute_kernels.bench nvfp4_gemm \
  --out "$OUT/bench" 2>&1 | tee "$OUT/gemm_suite.log" | grep -vE "^\s*$" | tail -14
CUTE_KERNELS_BENCH_SHAPES=2,3 timeout 200 python -m cute_kernels.bench swiglu \
  --out "$OUT/bench" 2>&1 | tee "$OUT/swiglu_suite.log" | grep -vE "^\s*$" | tail -22
echo "done after $(elapsed) s"
