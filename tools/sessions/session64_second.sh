#!/usr/bin/env bash
# Session 64 call 2 (~350 s): tools/plain_narrow_probe.py at its 41 points (nvfp4_gemm's
# 256-token plans that plain_narrow_launch turns into 128-token tiles, 300..2500 tokens).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session64_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_narrow_probe 240 0,1,2,3,4 5,6,7,8,9 10,11,12,13,14 15,16,17,18,19 \
  20,21,22,23,24 25,26,27,28 29,30,31,32,33 34,35,36,37,38 39,40
report_warm
run_points plain_narrow_probe 200 $(seq -s, 0 20)
run_points plain_narrow_probe 200 $(seq -s, 21 40)
echo "done after $(elapsed) s"
