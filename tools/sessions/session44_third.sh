#!/usr/bin/env bash
# Session 44's third call (~250 s): tools/register_depth_probe.py (2 / 3 K steps in flight a
# warp in registers, the probe switch REGISTER_DEPTH, at the one-token points and two occupancy
# checks), the graph-chain GPU tests of the fused trigger at the start (the new one-token row
# groups rule, STAGED_GROUPS_START_CTAS), then the swiglu suite's 9216x7168 on that rule.
# The register-depth probe and its switch lost everywhere and were removed after this call:
# they are at commit 7788369 (notes/h200-2026-12-02-s44.md, section 3).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points register_depth_probe 200 $(seq 0 5)
warm_suite swiglu 1
gpu_tests 300 /tmp/logs/t-start.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "start_chain or dependent_chain" &
report_warm_and_tests
run_points register_depth_probe 200 $(seq 0 5)
run_suite swiglu 100 1
suite_lines "1|8|16|64"
echo "done after $(elapsed) s"
