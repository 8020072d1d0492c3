#!/usr/bin/env bash
# Session 33's fifth call (~120 s): tools/wg_k_split_probe.py with two CTAs an SM
# (CUTE_KERNELS_PROBE_TWO_CTAS=1) at 7168x2048 M = 64 / 32 and 4096x7168 M = 64 / 32.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session33_fifth.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_PROBE_TWO_CTAS=1 CUTE_KERNELS_BENCH_SHAPES=0,1,4,5 timeout 250 \
  python tools/wg_k_split_probe.py 2>&1 | tee "$OUT/wg_k_split_probe.log"
echo "done after $(elapsed) s"
