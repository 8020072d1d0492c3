#!/usr/bin/env bash
# Session 74's first call (~330 s; session 73's calls compiled far faster than their
# estimates): the suites on session 73's routes (ONE_TOKEN_W4A16 and the balanced launch at
# two CTAs an SM, both on), cuBLAS and QuACK in the same run, so the closing table carries
# them: nvfp4_gemm 5120x17408 and 9216x7168, swiglu 9216x7168; then session73_balanced.sh's
# points (the balanced launch at one and three CTAs an SM: 4096x7168, 7168x18432) beside
# memcheck and racecheck on tools/sanitize_balanced.py; beside the warm-ups, mend 93e53ff's
# form of the -k one_token_w4a16 GPU tests (unrun); last, the targets report over this
# run's suite logs.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session74_suites.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 1 4
warm_suite swiglu 1
warm_points balanced_probe 150 2 3
gpu_tests 240 /tmp/logs/t-one-token-w4a16.log -k one_token_w4a16 tests/test_nvfp4_gemm.py &
report_warm_and_tests
sanitize_script sanitize_balanced 120
run_suite nvfp4_gemm 110 1 4
run_suite swiglu 110 1
run_points balanced_probe 120 2,3
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
