#!/usr/bin/env bash
# Session 33's seventh call (~90 s): tools/wg_k_split_probe.py at 4096x7168 M = 129..224
# (public against whole 128-token 64-row tiles; cuBLAS and QuACK in the same run).
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_BENCH_SHAPES=14,15,16,17 timeout 200 python tools/wg_k_split_probe.py 2>&1 \
  | tee "$OUT/wg_k_split_probe.log"
echo "done after $(elapsed) s"
