#!/usr/bin/env bash
# First device call after session 70 (~330 s): the balanced one-token launches
# (cute_kernels/nvfp4_gemm_balanced.py and swiglu_quant_balanced.py, built in session 70
# without a device, unrouted). Their GPU tests beside the probe's warm-ups; memcheck and
# racecheck on tools/sanitize_balanced.py; then tools/balanced_probe.py points 0..4 (M = 1,
# nvfp4_gemm 9216x7168, 5120x17408, 7168x18432, 4096x7168 and the fused op 9216x7168: the
# public route against the balanced forms, and their outputs against the public ones).
# Then, in later calls, the calls session 69 prepared: session70_first.sh, session70_second.sh.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session71_balanced.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
warm_points balanced_probe 200 0 1 2 3 4
report_warm_and_tests
sanitize_script sanitize_balanced 150
run_points balanced_probe 240 0,1,2,3,4
echo "done after $(elapsed) s"
