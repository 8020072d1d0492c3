#!/usr/bin/env bash
# Session 76, on whatever card comes (~480 s; written when no H200 had come for 30 min): the
# GPU tests session 75 wrote and no GPU has run (the README's quick start, the torch.compile
# custom ops, lean's bit tests), the W4A16 and balanced tests, then session75_quant.sh's
# checks and probe (sanitizers on the lean launches, each probe variant beside its lean form).
# Relative figures only off an H200: the probe's lean-vs-default ratio decides LEAN_LAUNCH.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session76_check.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpl,cmp9t,cmp9tl,cmp8v2tp,cmp8v2tpl
gpu_tests 420 /tmp/logs/t-lean.log -k lean tests/test_nvfp4_quant.py &
gpu_tests 400 /tmp/logs/t-new.log tests/models/test_readme_example.py tests/test_compile_ops.py \
    tests/test_nvfp4_gemm_balanced.py &
gpu_tests 400 /tmp/logs/t-w4a16.log -k w4a16 tests/test_nvfp4_gemm.py &
# fp16 SiLU*mul past the prefetch bound: 12 an SM spills an 8-byte frame, 10 does not
FP16=(env QUANT_PROBE_DTYPE=fp16 QUANT_PROBE_VARIANTS=cmp12v2t,cmp10v2t)
"${FP16[@]}" CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=12,13 timeout 300 \
    python tools/quant_bw_probe.py > /tmp/logs/warm-fp16.log 2>&1 &
quant_tests_and_probe "0 1 2 3 4 8 9" tests/test_nvfp4_quant.py -k every_kernel
"${FP16[@]}" CUTE_KERNELS_BENCH_SHAPES=12,13 timeout 100 python tools/quant_bw_probe.py 2>&1 \
    | tee "$OUT/quant_fp16_probe.log"
echo "done after $(elapsed) s"
