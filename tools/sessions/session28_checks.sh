#!/usr/bin/env bash
# Session 28, call 4 (~500 s): after the byte K order's rules (packed bytes take the wgmma
# route at 9..16 fp4 tokens from 100 units an SM; the fused op's quantizer warps on the byte
# order): the fused op's GPU tests in two halves (the file did not finish beside the others in
# call 3), the plain GEMM's packed / route / reference tests, racecheck; beside them the
# warm-up of the swiglu suite on 36864x7168 and the nvfp4_gemm suite on 36864x7168; then both.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_checks.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-fused-large.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large_m" &
gpu_tests 300 /tmp/logs/t-fused-rest.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large_m" &
gpu_tests 250 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "packed or w4a4 or fp64" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize racecheck 230) &
CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=0 timeout 250 python -m cute_kernels.bench \
  swiglu --out /tmp/warm0 > /tmp/logs/warm-swiglu0.log 2>&1 &
CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=2 timeout 250 python -m cute_kernels.bench \
  nvfp4_gemm --out /tmp/warmg2 > /tmp/logs/warm-gemm2.log 2>&1 &
wait
echo "tests + warm-up done after $(elapsed) s"
test_summary
cat "$OUT/racecheck.txt"; tail -1 /tmp/logs/probe.log
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0 timeout 120 python -m cute_kernels.bench swiglu --out /tmp/bench-swiglu \
  > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=2 timeout 130 python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm2 \
  > "$OUT/bench-gemm.log" 2>&1; echo "gemm exit $? at $(elapsed) s"
grep -E "M=(1|16|64|256|1024) " "$OUT/bench-swiglu.log" "$OUT/bench-gemm.log" | head -60
