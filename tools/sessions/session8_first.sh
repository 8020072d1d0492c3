#!/usr/bin/env bash
# Next session's first device call: the GPU tests of every layer (PDL now waits before the
# first weight load; the chain-in-a-graph tests), memcheck / racecheck, tools/pdl_probe.py with
# and without PDL (both warmed in parallel), the demo, tools/long_k_m1_probe.py. Then run
# tools/sessions/session8_suites.sh.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session8_first.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 280 /tmp/logs/t-models.log tests/models tests/test_nvfp4_quant.py tests/test_constants.py &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/pdl_probe.py > /tmp/logs/warm-pdl$i.log 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 250 python tools/pdl_probe.py > /tmp/logs/warm-pdlf.log 2>&1 &
for i in 0 1; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/long_k_m1_probe.py > /tmp/logs/warm-longk$i.log 2>&1 &
done
CUTE_KERNELS_DISABLE_PDL=1 CUTE_KERNELS_BENCH_WARM=1 timeout 250 python tools/pdl_probe.py > /tmp/logs/warm-nopdl.log 2>&1 &
report_checks
grep -h "^FAILED" /tmp/logs/t-*.log | head -20
timeout 120 python tools/pdl_probe.py 2>&1 | tee "$OUT/pdl.log"
CUTE_KERNELS_DISABLE_PDL=1 timeout 120 python tools/pdl_probe.py 2>&1 | tee -a "$OUT/pdl.log"
timeout 100 python -m models.demo > "$OUT/demo.log" 2>&1; grep -E "M=1 " "$OUT/demo.log"
timeout 90 python tools/long_k_m1_probe.py 2>&1 | tee "$OUT/long_k_m1.log"
echo "done after $(elapsed) s"
