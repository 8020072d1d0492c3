#!/usr/bin/env bash
# Session 57 call 3 (~400 s): every GPU test with KOrder.BF16's route (W4A16 on 128-token whole
# / stream-K launches of weights up to 1024x7168), tools/bf16_weights_probe.py at those launches
# (1024x7168 M = 768 .. 3072, points 10-15), the swiglu suite's 1024x7168 (issue 6's W4A16 rows).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session57_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points bf16_weights_probe 250 10 11 12 13 14 15
warm_suite swiglu 2
all_gpu_tests 14 330
report_warm
run_points bf16_weights_probe 150 10 11 12 13 14 15
run_suite swiglu 100 2
suite_lines
grep -h "W4A16 permuted" "$OUT"/bench-swiglu2.log | cut -c1-150
echo "done after $(elapsed) s"
