#!/usr/bin/env bash
# Session 27, call 6 (~150 s): tools/plain_packed_narrow_probe.py, nvfp4_gemm on packed bytes at
# 12 / 16 NVFP4 tokens: the public wgmma route against the small-M kernel.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session27_plain.sh
source "$(dirname "$0")/device_common.sh"
warm_points plain_packed_narrow_probe 200 0 1 2 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
timeout 120 python tools/plain_packed_narrow_probe.py 2>&1 | tee "$OUT/plain_packed.log"
echo "done after $(elapsed) s"
