#!/usr/bin/env bash
# Session 7: programmatic dependent launch in the small-M kernels. The small-M GPU tests and
# memcheck / racecheck with PDL on, both variants of tools/pdl_probe.py warmed in parallel,
# then timed (PDL, then CUTE_KERNELS_DISABLE_PDL=1), then the demo.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session7_pdl.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 250 /tmp/logs/t-small.log tests/test_nvfp4_gemm.py &
gpu_tests 220 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "small or split" &
gpu_tests 220 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py tests/models &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/pdl_probe.py > /tmp/logs/warm-pdl$i.log 2>&1 &
  CUTE_KERNELS_DISABLE_PDL=1 CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/pdl_probe.py > /tmp/logs/warm-nopdl$i.log 2>&1 &
done
report_checks
grep -h "^FAILED" /tmp/logs/t-*.log | head -20
timeout 150 python tools/pdl_probe.py 2>&1 | tee "$OUT/pdl.log"
CUTE_KERNELS_DISABLE_PDL=1 timeout 150 python tools/pdl_probe.py 2>&1 | tee -a "$OUT/pdl.log"
timeout 100 python -m models.demo > "$OUT/demo.log" 2>&1; grep -E "NVFP4" "$OUT/demo.log"
echo "done after $(elapsed) s"
