#!/usr/bin/env bash
# Session 23's first call: session 22's staged-quantization check (GPU test + the probe's bit
# check and times); if the bits match, STAGED_QUANT switched on in this machine's copy of the
# tree and the fused GPU tests, memcheck / racecheck (every fused launch of sanitize_probe.py
# then staged) and the swiglu suite run on it.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session23_call1.sh   (~560 s)
# Ran at commit 95bd2c4 (the probe's "fragment" / "noquant" variants and the STAGED_QUANT switch
# were removed after session 23: rerun those figures from that commit).
source "$(dirname "$0")/../device_common.sh"
bash tools/sessions/session22_staged_quant.sh
grep -q "DIFFER" "$OUT/staged_quant.log" && { echo "bits differ: stop"; exit 1; }
grep -q "passed" "$OUT/checks.txt" && ! grep -q "failed" "$OUT/checks.txt" || { echo "test failed: stop"; exit 1; }
mv "$OUT/checks.txt" "$OUT/checks-staged.txt"
sed -i 's/^    STAGED_QUANT = False/    STAGED_QUANT = True/' cute_kernels/nvfp4_gemm_swiglu_quant.py
grep -n "STAGED_QUANT = " cute_kernels/nvfp4_gemm_swiglu_quant.py
t0=$(date +%s)
rm -f /tmp/logs/t-*.log /tmp/logs/warm-*.log
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 260 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
report_checks
timeout $(( 400 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/swiglu > "$OUT/swiglu.log" 2>&1
echo "done after $(elapsed) s"
