#!/usr/bin/env bash
# Session 42's second call (prepared in session 41, ~400 s; after session41_fourth.sh): issue
# 6's one-token gap (tools/fused_m1_probe.py: the fused small kernel's configs beside the plain
# one at 9216x7168 / 36864x7168 / 4096x7168 M = 1; session 41's SASS count found the two main
# loops the same, 537 instructions an iteration at two row tiles, so the 1.7 us between them
# at 9216x7168 is the grid: 288 CTAs on 132 SMs against the plain kernel's 576), then the
# suites session 41 left out: swiglu shapes 3, 4, nvfp4_gemm shapes 0, 1.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_m1_probe 200 0 1 2
warm_suite swiglu 3 4
warm_suite nvfp4_gemm 0 1
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
timeout 150 python tools/fused_m1_probe.py 2>&1 | tee "$OUT/fused_m1_probe.log"
run_suite swiglu 90 3 4
run_suite nvfp4_gemm 100 0 1
suite_lines "1|16|64|256|1024"
echo "done after $(elapsed) s"
