#!/usr/bin/env bash
# Session 75's second call (~480 s): the rest of the nvfp4_gemm suite on today's routes
# (36864x7168, 34816x5120, 4096x7168, 7168x2048; session75_first.sh runs 7168x18432 and
# 5120x17408, session74_suites.sh ran 9216x7168 on an H100), shape by shape so that a cut run
# returns what it finished; the targets report over this run. On an H200 these replace
# session 50's rows (and older) in the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session75_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 2 3 4 5 6
report_warm
run_suite nvfp4_gemm 110 2 3 5 6 4
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
