#!/usr/bin/env bash
# Prepared in session 23 (no device time left) for session 24's first call:
# 1. GATE_AHEAD (off): the variants' GPU bit test and memcheck / racecheck (both cover it),
#    with the rest of the fused tests; then tools/fused_epilogue_probe.py main / ahead / skip
#    on 36864x7168 M = 1024, 34816x5120 M = 256, 9216x7168 M = 1000, 34816x5120 M = 1024.
#    If the bits match, racecheck is clean and "ahead" is faster, switch it on.
# 2. tools/split_points_probe.py at its 8 points: the fp32 split route against the fused
#    kernel's own launches (with the quantizer warps) and the unfused pair, where issue 6's
#    "never slower than the pair" is still open (9216x7168 M = 256, 1024x7168 M = 1024).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session24_first.sh   (~330 s)
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,ahead,skip
start_fused_checks
warm_points fused_epilogue_probe 250 0 2 4 6
warm_points split_points_probe 250 0 1 2 3 4 5 6 7
fused_checks_report
CUTE_KERNELS_BENCH_SHAPES=0,2,4,6 timeout 120 python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/fused_epilogue.log"
timeout 150 python tools/split_points_probe.py 2>&1 | tee "$OUT/split_points.log"
echo "done after $(elapsed) s"
