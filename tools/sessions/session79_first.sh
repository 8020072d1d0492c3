#!/usr/bin/env bash
# Session 79's first call (~250 s, H200): the nvfp4_gemm suite's 5120x17408 and 9216x7168 on
# today's rules: W4A16 9216x7168 M = 1 takes the balanced (8, 3) launch since session 78 (H100
# probe: 15.19 -> 14.68 us; its H200 row 12.35 us, 70.9%, was the unbalanced route), then the
# targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session79_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 1 4
report_warm
run_suite nvfp4_gemm 110 4 1
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
