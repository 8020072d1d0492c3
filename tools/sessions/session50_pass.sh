#!/usr/bin/env bash
# Session 50, seventh call (~150 s): the activations' pass on a resident grid
# (``PersistentGroupPass``) against the public launch, K = 7168, M = 1024..16384:
# tools/persistent_pass_probe.py (bit-for-bit check, graph us, % of a copy).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_pass.sh
source "$(dirname "$0")/../device_common.sh"
CUTE_KERNELS_BENCH_WARM=1 timeout 100 python tools/persistent_pass_probe.py \
  > /tmp/logs/warm-pass.log 2>&1
report_warm
timeout 120 python tools/persistent_pass_probe.py 2>&1 | tee "$OUT/persistent_pass_probe.log"
echo "done after $(elapsed) s"
