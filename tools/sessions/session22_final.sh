#!/usr/bin/env bash
# Session 22's last device call, on main after the staged epilogue (16-bit and fp32 outputs):
# the large-M GPU tests, the fused op's route tests, memcheck and racecheck on
# tools/sanitize_probe.py, both suites' compiles, all in parallel; then both suites.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_final.sh   (~450 s)
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 250 /tmp/logs/t-large-m.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 250 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "matches_reference or split_route or public_narrow or dependent_chain" &
warm_suites
report_checks
timeout $(( 470 - $(elapsed) )) python -m cute_kernels.bench nvfp4_gemm --out /tmp/gemm > "$OUT/nvfp4_gemm.log" 2>&1
echo "nvfp4_gemm done after $(elapsed) s"
timeout $(( 585 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/swiglu > "$OUT/swiglu.log" 2>&1
echo "done after $(elapsed) s"
