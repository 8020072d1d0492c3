#!/usr/bin/env bash
# Session 47, after session47_decode.sh if its tests passed and "decode" won (prepared in
# session 46, ~300 s): the public functions with ``act_decode.ROUTES_DECODE`` on (ab_on/, a copy
# of the tree with it set) against the tree (off), tools/loop_ab_probe.py at M = 1024 / 4096
# on the fused 1024x7168 and 4096x7168 and the GEMM 4096x7168 and 7168x2048 (points 11, 10,
# 5, 6), two rounds; the same output bits expected (the decode writes the pass's values).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session47_routes.sh
source "$(dirname "$0")/../device_common.sh"
rm -rf ab_on && mkdir ab_on && cp -r cute_kernels layouts ab_on/
sed -i 's/^ROUTES_DECODE = False$/ROUTES_DECODE = True/' ab_on/cute_kernels/act_decode.py
grep -q "^ROUTES_DECODE = True$" ab_on/cute_kernels/act_decode.py || { echo "sed missed"; exit 2; }
gpu_tests 250 /tmp/logs/t-routes.log tests/test_act_decode.py -k public &
LOOP_MS=1024,4096 ab_warm_points 300 "11 10 5 6" . ab_on
report_warm
test_summary
LOOP_MS=1024,4096 CUTE_KERNELS_BENCH_SHAPES=11,10,5,6 ab_rounds 120 2 . ab_on
echo "done after $(elapsed) s"
