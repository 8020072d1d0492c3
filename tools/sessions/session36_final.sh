#!/usr/bin/env bash
# Session 36's last call (~540 s): the GEMM, wg_k_split and fused GPU tests on the new rule
# (``pdl_trigger_plan``), beside the warm-up of the nvfp4_gemm suite on 4096x7168 and 7168x2048
# (shapes 5, 6) and the swiglu suite on 4096x7168 (shape 3); then those suites, alone.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 340 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py &
gpu_tests 340 /tmp/logs/t-wgk.log tests/test_wg_k_split.py tests/test_pdl_trigger.py &
gpu_tests 340 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
warm_suite nvfp4_gemm 5 6
warm_suite swiglu 3
wait
test_summary | tee "$OUT/checks.txt"
echo "checks done at $(elapsed) s"
for run in "nvfp4_gemm 5" "nvfp4_gemm 6" "swiglu 3"; do
  set -- $run
  CUTE_KERNELS_BENCH_SHAPES=$2 timeout 110 python -m cute_kernels.bench "$1" \
    --out "$OUT/$1$2" > "$OUT/bench-$1$2.log" 2>&1
  echo "$1 shape $2 exit $? at $(elapsed) s"
done
grep -h -E "W4A4 permuted|fused|pair" "$OUT"/bench-*.log | grep -E "M=(1|16|17|32|64|128|256) " \
  | cut -c1-180
