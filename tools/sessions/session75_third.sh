#!/usr/bin/env bash
# Session 75's third call (~500 s): the swiglu suite's other shapes (36864x7168, 1024x7168,
# 4096x7168, 34816x5120; session75_first.sh runs 9216x7168) shape by shape, then the quant
# and gdn suites (issue 4); the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session75_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 0 2 3 4
report_warm
run_suite swiglu 110 0 4 2 3
timeout 200 python -m cute_kernels.bench quant gdn --out "$OUT/quant" > "$OUT/bench-quant.log" 2>&1
echo "quant + gdn exit $? at $(elapsed) s"
grep -E "M=4096|T=4096" "$OUT/bench-quant.log" | cut -c1-175
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
