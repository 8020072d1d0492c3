#!/usr/bin/env bash
# Session 25 (issue 4): the quantization kernels launching the next kernel first thing (PDL
# launch_dependents) and the first item's loads before the table fill. The GPU tests of the
# quantization kernels and the models, memcheck + racecheck on small quantization launches,
# then tools/quant_bw_probe.py at the points issue 4 misses (plain M = 4096 K = 5120 / 7168,
# fused I = 5120) and their neighbours, then the quant suite with the time left (~590 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_quant.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 230 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py tests/test_silu_mul.py &
gpu_tests 230 /tmp/logs/t-models.log tests/models &
POINTS="0 1 2 3 4 5 8 9 10 11 12 13 16 19 21 22 25 27"
warm_points quant_bw_probe 200 $POINTS
quant_sanitize memcheck racecheck &
quant_report
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 150 python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
left=$(( 585 - $(elapsed) ))
echo "quant suite with $left s left"
timeout "$left" python -m cute_kernels.bench quant --out "$OUT" > "$OUT/quant.log" 2>&1
echo "quant exit $? at $(elapsed) s"
grep -v "^ *$" "$OUT/quant.log" | tail -40
