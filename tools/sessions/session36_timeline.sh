#!/usr/bin/env bash
# Session 36 (~150 s): tools/trigger_timeline.py, the kernels' start and end times of
# back-to-back nvfp4_gemm calls from a CUDA graph, without and with the PDL trigger, where it
# lost in session 35 (4096x7168 M = 512 / 1024, the cluster pair at M = 64) and where it won
# (7168x2048 M = 64). Compiled in parallel first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_timeline.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run trigger_timeline 4 120
echo "done after $(elapsed) s"
grep -h -E "trigger=|mean|per call" "$OUT/trigger_timeline.log"
