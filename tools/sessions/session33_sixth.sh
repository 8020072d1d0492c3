#!/usr/bin/env bash
# Session 33's sixth call (~120 s): tools/wg_k_split_probe.py at M = 256 on 7168x2048 and
# 4096x7168 (256- and 128-token 64-row tiles; cuBLAS and QuACK in the same run).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session33_sixth.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_BENCH_SHAPES=12,13 timeout 250 python tools/wg_k_split_probe.py 2>&1 \
  | tee "$OUT/wg_k_split_probe.log"
echo "done after $(elapsed) s"
