#!/usr/bin/env bash
# Session 75's first call (~450 s; session 74's three calls all ran on an H100): the rules
# session 74 took on H100 figures, rechecked on whatever card comes (the H200 is the issues'
# card).
# - tools/balanced_probe.py: W4A4 points 0 and 1 (forms never timed on the H200: 9216x7168
#   (8, 3), 5120x17408 (12, 2)), 2 and 3 (three and one CTAs an SM), the W4A16 points 5..8
#   and the fused op's W4A16 point 9.
# - Beside the warm-ups: the -k w4a16 GPU tests of test_nvfp4_gemm.py, the balanced tests and
#   the README's quick-start snippet (tests/models/test_readme_example.py, session 75) and the
#   torch.compile custom ops (tests/test_compile_ops.py, session 75).
# - The nvfp4_gemm suite's 5120x17408 (W4A16 at M = 4 on the wgmma kernel now, untimed there;
#   M = 1 on the balanced launch) and 7168x18432 (M = 1 on (8, 3)); the swiglu suite's
#   9216x7168; the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session75_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 0 1
warm_suite swiglu 1
warm_points balanced_probe 150 0 1 2 3 5 6 7 8 9
gpu_tests 300 /tmp/logs/t-w4a16.log -k w4a16 tests/test_nvfp4_gemm.py &
gpu_tests 300 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py \
    tests/models/test_readme_example.py tests/test_compile_ops.py &
report_warm_and_tests
run_points balanced_probe 260 0,1,2,3,5,6,7,8,9
run_suite nvfp4_gemm 110 1 0
run_suite swiglu 110 1
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
