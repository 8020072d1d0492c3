#!/usr/bin/env bash
# Session 64 call 1 (~420 s, prepared in session 63): tools/small_m_plans_probe.py on the 12
# points where session 63's sweep found nvfp4_gemm under issue 5's 0.9x of cuBLAS (mostly
# 300 / 600 tokens): the plan against forced whole tiles, stream-K and a K split, each output
# checked against the plan's.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session64_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points small_m_plans_probe 200 0 1 2 3 4 5 6 7 8 9 10 11
report_warm
run_points small_m_plans_probe 200 $(seq -s, 0 11)
echo "done after $(elapsed) s"
