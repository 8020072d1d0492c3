#!/usr/bin/env bash
# Session 27, call 9 (<= 190 s): tools/plain_w4a16_prefetch_probe.py, nvfp4_gemm W4A16 at 3 / 4 /
# 8 tokens, the register prefetch on and off, packed and permuted words, five shapes.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_w4a16_plain.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run plain_w4a16_prefetch_probe 5 120
echo "done after $(elapsed) s"
