#!/usr/bin/env bash
# Session 80's fifth call (~330 s, an H200): the nvfp4_gemm suite at 9216x7168 on the K groups
# rule of 60 units (large_m_plans.K_GROUPS_MIN_UNITS: two groups a stage at M = 4..32 there),
# 7168x2048 (W4A16 M = 256's row is session 44's) and 5120x17408; the swiglu suite at 1024x7168
# (the fused W4A16 M = 1024 row is session 60's); the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_fifth.sh
source "$(dirname "$0")/../device_common.sh"
session80_suites warm
report_warm
session80_suites run
echo "done after $(elapsed) s"
