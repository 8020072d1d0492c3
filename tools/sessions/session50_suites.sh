#!/usr/bin/env bash
# Session 50, fourth call (~400 s): the suites at issue 5's and 6's open points since session
# 49's asynchronous stream-K fix-up, cuBLAS and QuACK in the same run: the nvfp4_gemm suite on
# 7168x18432, 5120x17408 and 9216x7168 and the swiglu suite on 9216x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_suites.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 0 1 4
warm_suite swiglu 1
report_warm
run_suite nvfp4_gemm 110 0 1 4
run_suite swiglu 110 1
suite_lines "1|16|32|64|256"
echo "done after $(elapsed) s"
