#!/usr/bin/env bash
# Session 31's ninth call (~300 s): the quantizer warps off where every CTA has one tile or one
# K piece (``one_tile_a_cta``): the fused op's GPU route tests (the public bits equal to the
# route's launch), then the swiglu suite on 1024x7168 and 4096x7168 (the rows it moves: the
# wide pieces, and whole tiles in one wave at M = 1024 / 4096).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_ninth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "large_m_matches_reference or mid_m_routes or pieces or quantizer" &
warm_suite swiglu 2 3
wait
test_summary | tee "$OUT/checks.txt"
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=2,3 timeout 220 python -m cute_kernels.bench swiglu \
  --out "$OUT/bench" 2>&1 | tee "$OUT/swiglu_suite.log" | grep -vE "^\s*$" | tail -42
echo "done after $(elapsed) s"
