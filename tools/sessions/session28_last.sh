#!/usr/bin/env bash
# Session 28, call 8 (~100 s): the GPU test of W4A16 on packed bytes at 9..32 tokens of
# 36864x7168 (now the wgmma kernel in the byte order from 9), and tools/w4a16_order_probe.py
# at 36864x7168 M = 16 with permuted words beside.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_last.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 120 /tmp/logs/t-order.log tests/test_k_order.py -k "w4a16" &
warm_points w4a16_order_probe 100 12
wait
echo "test: $(tail -1 /tmp/logs/t-order.log)"; grep -E "^FAILED|^E  " /tmp/logs/t-order.log | head -6
CUTE_KERNELS_BENCH_SHAPES=12 timeout 60 python tools/w4a16_order_probe.py 2>&1 | tee "$OUT/w4a16_m16.log"
echo "done after $(elapsed) s"
