#!/usr/bin/env bash
# Session 42's ninth call (~70 s): tools/m1_pdl_probe.py's 8-warp points on the rule with
# PDL_ONE_TOKEN_START_STEPS (5120x6144: 3 steps a warp, at the start; 5120x5120, 4096x4096).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_ninth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points m1_pdl_probe 120 2 4 9 10
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
CUTE_KERNELS_BENCH_SHAPES=2,4,9,10 timeout 100 python tools/m1_pdl_probe.py 2>&1 | tee "$OUT/m1_pdl_probe.log"
echo "done after $(elapsed) s"
