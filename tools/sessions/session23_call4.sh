#!/usr/bin/env bash
# Session 23's last call: the quantizer warps helped by the consumers on a CTA's last tile
# (claims of 32 items), on every 128- / 256-token launch. The variants' bit test, the fused
# GPU tests in three more processes, memcheck / racecheck, the swiglu suite's compiles; then
# tools/fused_epilogue_probe.py (main = the rule, staged, fragment; six points) and the
# swiglu suite.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session23_call4.sh   (~500 s)
# Ran at commit 1f0114e (the probe's "fragment" / "noquant" variants and the STAGED_QUANT switch
# were removed after session 23: rerun those figures from that commit).
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,staged,fragment
start_fused_checks
warm_points fused_epilogue_probe 250 0 2 3 4 6 7
warm_swiglu_suite
fused_checks_report
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4,6,7 timeout 150 python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/probe.log"
echo "probe done after $(elapsed) s"
timeout $(( 560 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/swiglu > "$OUT/swiglu.log" 2>&1
echo "done after $(elapsed) s"
