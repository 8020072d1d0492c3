#!/usr/bin/env bash
# Session 46 (issue 6, ~90 s): the activations' decode pass alone at large M, its launch shape
# (units a thread, CTAs an SM) against a torch copy of the same bytes
# (tools/pass_large_m_probe.py): the pass is issue 6's 1024x7168 gap at M = 4096 / 16384.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_pass.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=2 timeout 120 \
  python tools/pass_large_m_probe.py > /tmp/logs/warm-pass.log 2>&1
tail -3 /tmp/logs/warm-pass.log
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3 timeout 150 python tools/pass_large_m_probe.py 2>&1 \
  | tee "$OUT/pass_large_m_probe.log"
echo "done after $(elapsed) s"
