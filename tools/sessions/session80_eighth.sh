#!/usr/bin/env bash
# Session 80's eighth call (~90 s on an H100, ~420 s on an H200): W4A16 5120x17408 M = 1024 with
# the 256-token stream-K in lanes forced (tools/lanes_w4a16_probe.py), then on an H200
# session80_fifth.sh's suites (the K groups rule of 60 units at 9216x7168; 7168x2048,
# 5120x17408; swiglu 1024x7168) and the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_eighth.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
(CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/lanes_w4a16_probe.py \
  > /tmp/logs/warm-lanes.log 2>&1) &
[ "$h200" = 1 ] && session80_suites warm
report_warm
timeout 120 python tools/lanes_w4a16_probe.py 2>&1 | tee "$OUT/lanes_w4a16_probe.log"
echo "lanes probe done at $(elapsed) s"
[ "$h200" = 1 ] && session80_suites run
echo "done after $(elapsed) s"
