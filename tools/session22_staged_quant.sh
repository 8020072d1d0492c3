#!/usr/bin/env bash
# Session 22's last device call: the fused kernel's staged quantization against main's, codes
# and scales bit for bit and time, on whole 256-token tiles (36864x7168 M = 1024, 4096x7168
# M = 1000: a token tail) and stream-K (34816x5120 M = 256, 9216x7168 M = 1000).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session22_staged_quant.sh   (~90 s)
source "$(dirname "$0")/device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,staged
warm_points fused_epilogue_probe 80 0 2 3 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4 timeout $(( 115 - $(elapsed) )) python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/staged_quant.log"
echo "done after $(elapsed) s"
