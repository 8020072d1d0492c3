#!/usr/bin/env bash
# Session 25, call 4 (issue 4): launch_config's grids that fill the SMs exactly (plain 8 an SM
# with the next item's loads below PLAIN_PREFETCH_ELEMENTS, 9 without past it; fused 8 with
# them). The GPU tests of the quantization kernels and the models, memcheck + racecheck,
# tools/quant_bw_probe.py at M = 4096 / 16384 (every K, plain and fused), then the quant suite
# (issue 4's table) with the time left (~400 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_quant3.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py tests/test_silu_mul.py &
gpu_tests 200 /tmp/logs/t-models.log tests/models &
POINTS="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
warm_points quant_bw_probe 200 $POINTS
quant_sanitize memcheck racecheck &
quant_report
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 200 python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
left=$(( 560 - $(elapsed) ))
echo "quant suite with $left s left"
timeout "$left" python -m cute_kernels.bench quant --out "$OUT" > "$OUT/quant.log" 2>&1
echo "quant exit $? at $(elapsed) s"
grep -v "^ *$" "$OUT/quant.log" | tail -40
