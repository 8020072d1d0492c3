#!/usr/bin/env bash
# Session 34's fourth call (~450 s): the fused kernel in clusters of four CTAs (``pair_pieces``:
# up and gate K halves summed in the first CTA's shared memory; the public route at 17..64 tokens
# on 4096x7168): GPU tests, memcheck and racecheck (tools/sanitize_probe.py has its launches),
# tools/fused_wgk_route_probe.py (quad / the fp32 split route's quantization options / the
# pair), the swiglu suite on 4096x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session34_quad.sh
source "$(dirname "$0")/device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 220 & sanitize racecheck 240 & wait) &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "cluster or wg_k_split or split_route or pieces" &
gpu_tests 300 /tmp/logs/t-wgk.log tests/test_wg_k_split.py -k "public or pair" &
warm_points fused_wgk_route_probe 250 0 1 2 3 4 5 6 7
warm_suite swiglu 3
wait
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
grep -E "ERROR|Traceback" /tmp/logs/probe.log | head -5
test_summary | tee "$OUT/checks.txt"
timeout 200 python tools/fused_wgk_route_probe.py 2>&1 | tee "$OUT/fused_wgk_route.log"
echo "probe done at $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=3 timeout 120 python -m cute_kernels.bench swiglu \
  --out "$OUT/swiglu3" > "$OUT/bench-swiglu.log" 2>&1
echo "swiglu shape 3 exit $? at $(elapsed) s"
grep -E "permuted " "$OUT/bench-swiglu.log" | cut -c1-220
