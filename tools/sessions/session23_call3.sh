#!/usr/bin/env bash
# Session 23's third call: the quantizer warps as a launch rule (quantizer_warps: more tiles
# than CTAs), the staged h's up warpgroup loading before storing. The variants' bit test, the
# fused GPU tests in three more processes, memcheck / racecheck, the swiglu suite's compiles;
# then tools/fused_epilogue_probe.py (main = the rule, staged, quant3, quant2, fragment) and
# the swiglu suite.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session23_call3.sh   (~520 s)
# Ran at commit 0778f33 (the probe's "fragment" / "noquant" variants and the STAGED_QUANT switch
# were removed after session 23: rerun those figures from that commit).
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,staged,quant3,quant2,fragment
start_fused_checks
warm_points fused_epilogue_probe 250 0 2 3 4
warm_swiglu_suite
fused_checks_report
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4 timeout 120 python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/probe.log"
echo "probe done after $(elapsed) s"
timeout $(( 575 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/swiglu > "$OUT/swiglu.log" 2>&1
echo "done after $(elapsed) s"
