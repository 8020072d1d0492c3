#!/usr/bin/env bash
# Session 77's first call (~330 s): session 76's balanced one-token rule on the H200's suites
# (it changed after call 7 and was checked only on an H100): 5120x17408 at (12, 2) (probe:
# 16.10 -> 15.71 us, 75.1% of the roofline expected, 75% asked), 9216x7168 NVFP4 at (8, 3)
# (12.24 -> 12.02), the fused op's W4A16 9216x7168 at (8, 2) (14.57 -> 13.13). Beside the
# warm-ups the balanced GPU tests and the quant tests (fp16 SiLU*mul at 10 CTAs an SM, session
# 76; lean removed). Then the suites' 5120x17408 and 9216x7168 and swiglu 9216x7168, and the
# targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session77_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 250 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
gpu_tests 250 /tmp/logs/t-quant.log -k "past_the_prefetch or every_kernel" tests/test_nvfp4_quant.py &
warm_suite nvfp4_gemm 1 4
warm_suite swiglu 1
report_warm_and_tests
run_suite nvfp4_gemm 110 1 4
run_suite swiglu 110 1
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
