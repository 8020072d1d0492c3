#!/usr/bin/env bash
# Session 58 call 4 (~150 s): the fused op's tests that call 3 failed, after their fixes (the
# pairs' own tokens-a-row switch; the route check's 256-token W4A16 stream-K plan and the
# swapped kernel's K pieces), the swapped kernel's test file and the fused large-M tests again,
# then tools/swapped_pair_probe.py at M = 1664 / 2100 with the normal route beside ("fp4_normal").
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session58_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points swapped_pair_probe 250 6 7
all_gpu_tests 6 240 tests/test_swiglu_quant_swapped.py \
  "tests/test_nvfp4_gemm_swiglu_quant.py::test_large_m_matches_reference" \
  "tests/test_nvfp4_gemm_swiglu_quant.py::test_small_weight_mid_m_routes_match_reference"
report_warm
run_points swapped_pair_probe 150 6 7
echo "done after $(elapsed) s"
