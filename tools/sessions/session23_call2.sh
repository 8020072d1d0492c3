#!/usr/bin/env bash
# Session 23's second call: the staged quantization (now the default, h lines written in place)
# and the producer warps quantizing it (QUANTIZER_WARPS = 3, off): their bit test, the fused
# GPU tests in four processes, memcheck / racecheck (racecheck's first reports kept), then
# tools/fused_epilogue_probe.py (main = staged, fragment, quant3, skip; bits checked).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session23_call2.sh   (~420 s)
# Ran at commit d84fb8d (the probe's "fragment" / "noquant" variants and the STAGED_QUANT switch
# were removed after session 23: rerun those figures from that commit).
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,quant3,fragment,skip
start_fused_checks
warm_points fused_epilogue_probe 200 0 2 3 4
fused_checks_report
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4 timeout $(( 560 - $(elapsed) )) python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/probe.log"
echo "done after $(elapsed) s"
