#!/usr/bin/env bash
# Two tokens on the register path instead of staged (X_SMEM_TOKENS = 1), and the tree's PDL for
# one wave of register-path CTAs + the staged scale table where it measured faster, against
# main. Packages: ab_main/ (main), ab_x1/ (main, two tokens on the register path), ab_tx1/ (the
# tree, two tokens on the register path), the tree. GPU tests of the small-M GEMM and the fused
# kernel on the tree, memcheck + racecheck, then tools/loop_ab_probe.py at M = 1, 2, 4, 16 on
# every point, twice.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_register_m2.sh   (~480 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
x1() {  # x1 SRC DST: SRC's package with two tokens on the register path
  rm -rf "$2" && mkdir -p "$2" && cp -r "$1"/cute_kernels "$1"/layouts "$2"/
  sed -i -e "s/^X_SMEM_TOKENS = 2 /X_SMEM_TOKENS = 1 /" -e "s/^PLAIN_X_SMEM_TOKENS = 2$/PLAIN_X_SMEM_TOKENS = 1/" \
    "$2/cute_kernels/nvfp4_gemm.py"
  [ "$(grep -c -E '^(PLAIN_)?X_SMEM_TOKENS = 1' "$2/cute_kernels/nvfp4_gemm.py")" = 2 ] || { echo "x1 $2 failed"; exit 2; }
}
x1 ab_main ab_x1
x1 . ab_tx1
export LOOP_MS=1,2,4,16
small="every_tile or paired or split or chain or graph or every_scale_byte"
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "$small" &
gpu_tests 280 /tmp/logs/t-gemm2.log tests/test_nvfp4_gemm.py -k "not large and not stream_k and not split_k_route and not hybrid and not ($small)" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
ab_warm 270 ab_main ab_x1 ab_tx1 .
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
ab_rounds 100 2 ab_main ab_x1 ab_tx1 .
echo "done after $(elapsed) s"
