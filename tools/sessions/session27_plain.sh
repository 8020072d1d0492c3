#!/usr/bin/env bash
# Session 27, call 6 (~150 s): tools/plain_packed_narrow_probe.py, nvfp4_gemm on packed bytes at
# 12 / 16 NVFP4 tokens: the public wgmma route against the small-M kernel.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_plain.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run plain_packed_narrow_probe 4 200
echo "done after $(elapsed) s"
