#!/usr/bin/env bash
# Session 52 (~550 s): the in-place W4A16 rule (k_order.W4A16_IN_PLACE_MIN_M = 1024, at most
# 5120 rows) on main: every GPU test (12 shards side by side), then the swiglu suite on
# 1024x7168 and 4096x7168 (with its new "fused W4A16" rows from M = 256).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session52_check.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2 3
all_gpu_tests 12 300
report_warm
run_suite swiglu 200 2 3
suite_lines "256|1024|4096|16384"
echo "done after $(elapsed) s"
