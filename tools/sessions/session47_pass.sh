#!/usr/bin/env bash
# Session 47's third call (~350 s): the activations' decode pass on a balanced grid
# (``unit_grid.BALANCE_PASS``: 2 units a thread where 4 leave the one resident wave uneven;
# session 46 call 8: 1024x7168 M = 1024, the pass alone 5.80 -> 5.23 us) through the public
# functions: ab_on/ (a copy of the tree with it on) against the tree (off), tools/loop_ab_probe.py
# at M = 512 / 1000 / 1024 on the fused 1024x7168 and 4096x7168 and the GEMM 4096x7168 and
# 34816x5120 (points 11, 10, 5, 3), two rounds; the same output bits expected. Beside it the
# GPU test that the balanced pass writes the same bits.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session47_pass.sh
source "$(dirname "$0")/../device_common.sh"
rm -rf ab_on && mkdir ab_on && cp -r cute_kernels layouts ab_on/
sed -i 's/^BALANCE_PASS = False$/BALANCE_PASS = True/' ab_on/cute_kernels/unit_grid.py
grep -q "^BALANCE_PASS = True$" ab_on/cute_kernels/unit_grid.py || { echo "sed missed"; exit 2; }
gpu_tests 200 /tmp/logs/t-pass.log tests/test_nvfp4_dequant.py -k "balanced or spread" &
LOOP_MS=512,1000,1024 ab_warm_points 300 "11 10 5 3" . ab_on
report_warm
test_summary
LOOP_MS=512,1000,1024 CUTE_KERNELS_BENCH_SHAPES=11,10,5,3 ab_rounds 100 2 . ab_on
echo "done after $(elapsed) s"
