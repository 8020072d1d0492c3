#!/usr/bin/env bash
# Session 80's seventh call (~90 s on an H100, ~420 s on an H200): the consumers' cost split
# (tools/stream_parts_probe.py: the real launch without its wgmmas, without its decode, beside
# the real and stubbed launches at one and two K groups), then on an H200 session80_fifth.sh's
# suites (the K groups rule of 60 units at 9216x7168; 7168x2048, 5120x17408; swiglu 1024x7168).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_seventh.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
export CUTE_KERNELS_PROBE_VARIANTS=real,real_g2,stub,stub_g2,none,no_mma,no_decode,no_mma_g2,no_decode_g2
for i in 0 1; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/stream_parts_probe.py > /tmp/logs/warm-parts$i.log 2>&1 &
done
[ "$h200" = 1 ] && session80_suites warm
report_warm
timeout 120 python tools/stream_parts_probe.py 2>&1 | tee "$OUT/stream_parts_probe.log"
echo "parts probe done at $(elapsed) s"
[ "$h200" = 1 ] && session80_suites run
echo "done after $(elapsed) s"
