#!/usr/bin/env bash
# 3..8 tokens staged in shared memory (prepared in session 72 without a device; never timed:
# session 9's probe stopped on an import error): ~450 s. The probe's warm-ups beside the
# staged GPU tests (tests/test_nvfp4_gemm.py::test_three_to_eight_tokens_staged, fp64
# reference, packed bytes and permuted words), memcheck and racecheck on
# tools/sanitize_staged_tokens.py, then tools/staged_tokens_probe.py points 0..10 (W4A16 and
# W4A4, the public route against staged configs forced through launch_small_m). Aimed at issue
# 5's W4A16 rows at 4..8 tokens (9216x7168 51.5 / 51.7%, 5120x17408 50.2 / 55.9%, 60% asked;
# 7168x18432 1.46 / 1.44x QuACK, 1.5x asked), which session 72's target report
# (python -m cute_kernels.bench.targets notes/raw --latest --open) listed.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session73_staged.sh
source "$(dirname "$0")/../device_common.sh"
warm_points staged_tokens_probe 240 0,1 2,3 4,5 6,7 8 9 10
all_gpu_tests 3 240 tests/test_nvfp4_gemm.py -k three_to_eight
report_warm
sanitize_script sanitize_staged_tokens 110
run_points staged_tokens_probe 240 0,1,2,3,4,5,6,7,8,9,10
echo "done after $(elapsed) s"
