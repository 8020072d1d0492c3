#!/usr/bin/env bash
# Session 74's third call (~450 s): with W4A16's balanced launch on at two and three CTAs an
# SM, its GPU tests and the one-token W4A16 and PDL chain tests (5120x17408 now chains
# through it); the nvfp4_gemm suite's 5120x17408, 36864x7168 and 34816x5120; the quant and
# gdn suites (issue 4); the targets report over this run.
# The device copies at most 64 MiB: move notes/raw aside for the call (see the s69 notes).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session74_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 1 2 3
gpu_tests 300 /tmp/logs/t-balanced.log tests/test_nvfp4_gemm_balanced.py &
gpu_tests 300 /tmp/logs/t-chains.log -k "one_token_w4a16 or chain_in_a_graph" \
  tests/test_nvfp4_gemm.py &
report_warm_and_tests
run_suite nvfp4_gemm 110 1 2 3
timeout 200 python -m cute_kernels.bench quant gdn --out "$OUT/quant" > "$OUT/bench-quant.log" 2>&1
echo "quant + gdn exit $? at $(elapsed) s"
suite_lines "1|4|8|16"
grep -E "M=4096|T=4096|T=8192|M=8192" "$OUT/bench-quant.log" | cut -c1-175
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
