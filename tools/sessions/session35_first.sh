#!/usr/bin/env bash
# Session 35's first call (~250 s): ``NVFP4GemmLargeM.PDL_TRIGGER`` (the wgmma kernels trigger
# the next launch after each tile's main loop), tools/gemm_trigger_probe.py: the public route
# against the same launch with the trigger, back to back as the suites time them, on the small
# weights' one-tile-a-CTA launches (nvfp4_gemm 4096x7168 M = 32 / 64 / 128 / 256, 7168x2048
# M = 32 / 64; the fused op 4096x7168 M = 64 / 256) and two stream-K plans (9216x7168,
# 7168x18432 at M = 64). Compiled in parallel first (one process a point).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session35_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points gemm_trigger_probe 200 0 1 2 3 4 5 6 7 8 9
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 300 python tools/gemm_trigger_probe.py 2>&1 | tee "$OUT/gemm_trigger.log"
echo "done after $(elapsed) s"
