#!/usr/bin/env bash
# The fused kernel's staged quantization (``STAGED_QUANT``, off) against the default: its GPU
# test (codes and scales bit for bit on six launch shapes) beside the probe's compiles, then
# tools/fused_epilogue_probe.py's bit check and times on whole 256-token tiles (36864x7168
# M = 1024, 4096x7168 M = 1000: a token tail) and stream-K (34816x5120 M = 256, 9216x7168
# M = 1000). Prepared in session 22, which had no device time left to run it.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_staged_quant.sh   (~150 s)
# Ran at session 22's commits (the fused epilogue probe's "noquant" variant, the fragment-held
# quantization and the test it names were removed in session 23: rerun from commit a21151c).
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,staged
gpu_tests 150 /tmp/logs/t-staged.log tests/test_nvfp4_gemm_swiglu_quant.py -k staged_quantization_matches &
warm_points fused_epilogue_probe 100 0 2 3 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
tail -1 /tmp/logs/t-staged.log | tee "$OUT/checks.txt"; grep -E "^FAILED" /tmp/logs/t-staged.log | head
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4 timeout 120 python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/staged_quant.log"
echo "done after $(elapsed) s"
