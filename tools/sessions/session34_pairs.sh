#!/usr/bin/env bash
# Branch wgk-cluster-pair's check (~350 s): `pair_pieces` (two CTAs a 64-row tile in a cluster,
# the second's sums stored into the first's shared memory with st.async): its GPU tests,
# memcheck and racecheck with its two `sanitize_probe` launches, then
# CUTE_KERNELS_PROBE_PAIRS=1 of `wg_k_split_probe` (4096x7168 M = 64 / 32 / 17 / 128:
# the K pieces through global memory, "wgk{t}p2", against the pair; 7168x2048 M = 64 / 32).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session34_pairs.sh
source "$(dirname "$0")/../device_common.sh"
timeout 100 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1  # compiles, warm cache
sanitize memcheck 200 &
sanitize racecheck 230 &
gpu_tests 230 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
wait
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
test_summary | tee "$OUT/checks.txt"
CUTE_KERNELS_PROBE_PAIRS=1 CUTE_KERNELS_BENCH_SHAPES=4,5,6,8,0,1 timeout 200 \
  python tools/wg_k_split_probe.py 2>&1 | tee "$OUT/pairs.log"
echo "done after $(elapsed) s"
