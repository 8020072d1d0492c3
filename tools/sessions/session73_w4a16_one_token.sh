#!/usr/bin/env bash
# W4A16 at one token with the one-token launch rules (prepared in session 72 without a device;
# SmallMLaunchRules.ONE_TOKEN_W4A16, off): ~250 s. The probe's warm-ups beside the switch's
# GPU tests (tests/test_nvfp4_gemm.py -k one_token_w4a16: fp64 reference, a graph-replayed
# chain), then
# tools/w4a16_one_token_probe.py points 0..6 (public against the switch on). Aimed at issue 5's
# W4A16 M = 1 rows (9216x7168 67.2%, 5120x17408 64.8%; 75% asked), which session 72's target
# report listed. If "w4a16pdl" wins, set ONE_TOKEN_W4A16 = True (or fold it into the rules).
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session73_w4a16_one_token.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_one_token_probe 200 0 1 2 3 4 5 6
all_gpu_tests 2 200 tests/test_nvfp4_gemm.py -k one_token_w4a16
report_warm
run_points w4a16_one_token_probe 150 0,1,2,3,4,5,6
echo "done after $(elapsed) s"
