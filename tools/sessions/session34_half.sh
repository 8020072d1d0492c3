#!/usr/bin/env bash
# Session 34's fourth call (~330 s): the fused kernel on half interleave groups (``wg_k_split``:
# 32 up + 32 gate rows a 64-row tile; two K halves in clusters of two, ``pair_pieces``), the
# public route on 4096x7168 at 17..256 tokens: GPU tests, memcheck and racecheck
# (tools/sanitize_probe.py has its launches), tools/fused_wgk_route_probe.py (half / the fp32
# split route / the pair), the swiglu suite on 4096x7168.
# (Call 4 ran this with the fused kernel in clusters of four CTAs, since replaced: correct,
# sanitizers clean, but two waves of clusters, 4096x7168 M = 64 25.5 us.)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session34_half.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 220 & sanitize racecheck 240 & wait) &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "half or wg_k_split or split_route or pieces or large_m_matches" &
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
