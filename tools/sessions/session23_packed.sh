#!/usr/bin/env bash
# Session 23: the fused kernel's epilogue variants on standard (packed) weight words, where
# the swiglu suite had the fused op at 0.98-0.99x the unfused pair at M >= 1024 (permuted
# words: 1.02-1.05x): main (the quantizer warps), staged (the consumers quantize), skip.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session23_packed.sh   (~170 s)
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,staged,skip CUTE_KERNELS_PROBE_PACKED=1
warm_points fused_epilogue_probe 150 0 6
wait
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0,6 timeout 120 python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/packed.log"
echo "done after $(elapsed) s"
