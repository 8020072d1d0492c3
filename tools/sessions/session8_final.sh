#!/usr/bin/env bash
# Session 8's last device call: all GPU tests, memcheck / racecheck, the swiglu suite warmed
# alongside; then the swiglu suite and the demo until 560 s after the start.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session8_final.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 280 /tmp/logs/t-models.log tests/models tests/test_nvfp4_quant.py tests/test_constants.py tests/test_gate_up_weight.py &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
report_checks
left() { echo $(( 560 - $(elapsed) )); }
timeout "$(left)" python -m cute_kernels.bench swiglu --out /tmp/bench-swiglu > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
timeout "$(left)" python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"
grep -E "M=1 " "$OUT/demo.log"
