#!/usr/bin/env bash
# Branch permuted-weights after the wgmma decode took contiguous word pairs and the permuted-K
# dequantize whole groups: the permuted and dequantize tests (every permuted path), the model
# tests, memcheck / racecheck
# (tools/sanitize_probe.py ends with permuted launches), while tools/permuted_weights_probe.py
# compiles; then the probe (standard -> permuted, public functions, M = 1..1024).
# Usage on the lent H200 (branch checked out): source .gpu/setup.sh; bash tools/sessions/session10_permuted2.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 200 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 250 & sanitize racecheck 280 & wait) &
gpu_tests 330 /tmp/logs/t-perm.log tests/test_permuted_fp4.py tests/test_nvfp4_dequant.py &
gpu_tests 330 /tmp/logs/t-models.log tests/models &
for i in 0 1 2 3 4 5 6 7 8; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 330 python tools/permuted_weights_probe.py > /tmp/logs/warm-pw$i.log 2>&1 &
done
report_checks
timeout $(( 590 - $(elapsed) )) python tools/permuted_weights_probe.py 2>&1 | tee "$OUT/permuted_weights.log"
echo "done after $(elapsed) s"
