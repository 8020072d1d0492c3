#!/usr/bin/env bash
# Session 46's first call (prepared in session 45, ~400 s). Carry [".gpu", "ab_main"], ab_main/
# being main's package before session 45 (git archive d0d9814 cute_kernels layouts).
# 1. Two CTAs an SM for the plain GEMM's 16- / 32-token stream-K launches with fewer units an
#    SM. TWO_CTAS_MIN_UNITS = 150 keeps 7168x18432 (122 units an SM at M = 16), 5120x17408 (82)
#    and 9216x7168 (61) at one CTA; the two-CTA launch lost there (session 19: 7168x18432
#    M = 16 31.0 -> 34.5 us) with the fix-up of then (a GPU fence in every consumer thread, no
#    head check). Two CTAs an SM cut twice as many tiles, so they pay the fix-up twice as
#    often; session 45 made it cheaper (nvfp4-gemm-next.md item 00000000000000000000000).
#    ab_two/ is the tree's package with the bar at 40, ab_twog/ also with two K groups a stage
#    from 40 units an SM (K_GROUPS_MIN_UNITS 80: two CTAs with one group lost at 36864x7168 in
#    session 18, with two they won); tools/loop_ab_probe.py at M = 16 / 32 on the GEMM
#    7168x18432, 5120x17408 and 9216x7168, tree / ab_two / ab_twog, two rounds. The launches
#    cut the tiles at other places, so "outputs differ" is expected (other fp32 sums).
# 2. Session 45's fix-up (one release a CTA) on K-split launches, unmeasured there: main
#    (ab_main/) / tree at M = 32 / 64 on the GEMM 4096x7168 and 7168x2048, two rounds.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_first.sh
source "$(dirname "$0")/../device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/ missing"; exit 2; }
plans=cute_kernels/large_m_plans.py
for d in ab_two ab_twog; do
  rm -rf $d && mkdir $d && cp -r cute_kernels layouts $d/
  sed -i 's/^TWO_CTAS_MIN_UNITS = 150$/TWO_CTAS_MIN_UNITS = 40/' $d/$plans
  grep -q "^TWO_CTAS_MIN_UNITS = 40$" $d/$plans || { echo "sed missed"; exit 2; }
done
sed -i 's/^K_GROUPS_MIN_UNITS = 80$/K_GROUPS_MIN_UNITS = 40/' ab_twog/$plans
grep -q "^K_GROUPS_MIN_UNITS = 40$" ab_twog/$plans || { echo "sed missed"; exit 2; }
gpu_tests 300 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py \
  -k "stream or hybrid or split" &
LOOP_MS=16,32 ab_warm_points 300 "0 1 4" . ab_two ab_twog
LOOP_MS=32,64 ab_warm_points 300 "5 6" ab_main .
report_warm
test_summary
LOOP_MS=16,32 CUTE_KERNELS_BENCH_SHAPES=0,1,4 ab_rounds 90 2 . ab_two ab_twog
cp "$OUT/ab.txt" "$OUT/ab-two-ctas.txt"
LOOP_MS=32,64 CUTE_KERNELS_BENCH_SHAPES=5,6 ab_rounds 60 2 ab_main .
echo "done after $(elapsed) s"
