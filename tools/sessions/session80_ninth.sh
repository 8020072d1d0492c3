#!/usr/bin/env bash
# Session 80's ninth call (~100 s on an H100, ~260 s on an H200): the stream-K in lanes forced at
# M = 1024 (tools/lanes_w4a16_probe.py: 5120x17408 and 7168x18432, W4A16 at several lane
# counts, NVFP4 tokens in 8 lanes; the H100 took W4A16 5120x17408 from 266 to 235 us in 8
# lanes in call 12); an H100 runs 7168x18432 only. On an H200 then the nvfp4_gemm suite at
# 9216x7168 (the K groups rule of 60 units) and the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_ninth.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
points="1"
[ "$h200" = 1 ] && points="0 1"
for i in $points; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/lanes_w4a16_probe.py > /tmp/logs/warm-lanes$i.log 2>&1 &
done
[ "$h200" = 1 ] && warm_suite nvfp4_gemm 4
report_warm
CUTE_KERNELS_BENCH_SHAPES=$(echo $points | tr ' ' ,) timeout 150 \
  python tools/lanes_w4a16_probe.py 2>&1 | tee "$OUT/lanes_w4a16_probe.log"
echo "lanes probe done at $(elapsed) s"
[ "$h200" = 1 ] && suite_targets nvfp4_gemm "1|4|8|16|32" 4
echo "done after $(elapsed) s"
