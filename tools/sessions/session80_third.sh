#!/usr/bin/env bash
# Session 80's third call (~110 s on an H100, ~300 s on an H200): two K groups a stage on
# 16-token stream-K tiles from 60 units a CTA (large_m_plans.K_GROUPS_MIN_UNITS, then only on 16-token tiles) against
# the rule before it, the public op at 9216x7168 M = 4 / 8 / 16, NVFP4 and bf16 tokens
# (tools/k_groups_rule_probe.py). On an H200 also the stream's parts
# (tools/stream_parts_probe.py), the one-token read floor (tools/read_ceiling_probe.py) and
# W4A16 5120x17408 M = 1024 in place against the copy route (tools/w4a16_in_place_probe.py 13).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_third.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
for i in 0 1 2 3 4 5; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/k_groups_rule_probe.py > /tmp/logs/warm-rule$i.log 2>&1 &
done
if [ "$h200" = 1 ]; then
  for i in 0 1; do
    CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
      python tools/stream_parts_probe.py > /tmp/logs/warm-parts$i.log 2>&1 &
  done
  (CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/read_ceiling_probe.py \
    > /tmp/logs/warm-ceiling.log 2>&1) &
  (CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=13 timeout 150 \
    python tools/w4a16_in_place_probe.py > /tmp/logs/warm-inplace.log 2>&1) &
fi
report_warm
timeout 150 python tools/k_groups_rule_probe.py 2>&1 | tee "$OUT/k_groups_rule_probe.log"
if [ "$h200" = 1 ]; then
  timeout 120 python tools/stream_parts_probe.py 2>&1 | tee "$OUT/stream_parts_probe.log"
  timeout 90 python tools/read_ceiling_probe.py 2>&1 | tee "$OUT/read_ceiling_probe.log"
  CUTE_KERNELS_BENCH_SHAPES=13 timeout 90 python tools/w4a16_in_place_probe.py 2>&1 \
    | tee "$OUT/w4a16_in_place_probe.log"
fi
echo "done after $(elapsed) s"
