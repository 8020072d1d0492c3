#!/usr/bin/env bash
# Main after the permuted weights merged: the demo (the models hold permuted words on CUDA) and
# the demo on packed weights (CUTE_KERNELS_PERMUTED_WEIGHTS=0), the swiglu suite, then as much
# of the nvfp4_gemm suite as the time allows (both suites time packed and permuted weights).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session10_final.sh
source "$(dirname "$0")/device_common.sh"
warm_suites
CUTE_KERNELS_BENCH_WARM=1 timeout 250 python -m models.demo > /tmp/logs/warm-demo.log 2>&1 &
CUTE_KERNELS_PERMUTED_WEIGHTS=0 CUTE_KERNELS_BENCH_WARM=1 timeout 250 python -m models.demo > /tmp/logs/warm-demo0.log 2>&1 &
wait
echo "warm-up done after $(elapsed) s"; grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
timeout 100 python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"
CUTE_KERNELS_PERMUTED_WEIGHTS=0 timeout 100 python -m models.demo > "$OUT/demo-standard.log" 2>&1; echo "standard demo exit $? at $(elapsed) s"
timeout $(( 420 - $(elapsed) )) python -m cute_kernels.bench swiglu --out "$OUT/swiglu" > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
timeout $(( 585 - $(elapsed) )) python -m cute_kernels.bench nvfp4_gemm --out "$OUT/gemm" > "$OUT/bench-gemm.log" 2>&1; echo "gemm exit $? at $(elapsed) s"
grep -E "M=1 " "$OUT/demo.log" "$OUT/demo-standard.log" | head -12
