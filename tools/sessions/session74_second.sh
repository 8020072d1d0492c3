#!/usr/bin/env bash
# Session 74's second call (~300 s): the balanced launch's GPU tests (the public ops now take
# three CTAs an SM with 8 K warps, and a W4A16 public route behind
# PUBLIC_W4A16_BALANCED_CTAS_PER_SM) and its sanitizer probe (an 8-warp case added); the W4A16
# balanced points of tools/balanced_probe.py (5..8: 5120x17408, 7168x18432, 9216x7168,
# 4096x7168 at M = 1, bf16 activations); the nvfp4_gemm suite's 7168x18432 on the new
# route, with the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session74_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 0
warm_points balanced_probe 150 5 6 7 8
gpu_tests 240 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
report_warm_and_tests
sanitize_script sanitize_balanced 150
run_points balanced_probe 150 5,6,7,8
run_suite nvfp4_gemm 110 0
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
