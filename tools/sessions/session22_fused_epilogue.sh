#!/usr/bin/env bash
# Session 22's last minutes of device time: tools/fused_epilogue_probe.py on fused 36864x7168
# M = 1024 and 34816x5120 M = 256 (compiles in parallel first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_fused_epilogue.sh   (~120 s)
# Ran at session 22's commits (the fused epilogue probe's "noquant" variant, the fragment-held
# quantization and the test it names were removed in session 23: rerun from commit a21151c).
source "$(dirname "$0")/../device_common.sh"
warm_points fused_epilogue_probe 100 0 2
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0,2 timeout $(( 160 - $(elapsed) )) python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/fused_epilogue_probe.log"
echo "done after $(elapsed) s"
