#!/usr/bin/env bash
# Session 74's fourth call (what is left of the budget, ~300 s): the rest of the tables on
# the lent card, shape by shape so that a cut run still returns what it finished: the
# nvfp4_gemm suite's 4096x7168 and 7168x2048, the swiglu suite's 36864x7168 and 34816x5120;
# the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session74_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 5 6
warm_suite swiglu 0 4
report_warm
run_suite nvfp4_gemm 80 5 6
run_suite swiglu 90 0 4
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
