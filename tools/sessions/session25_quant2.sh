#!/usr/bin/env bash
# Session 25, call 3 (issue 4): call 2's suite put plain nvfp4_quantize with the early PDL
# trigger 4-8 points under session 11 wherever the kernel takes 56 registers (9 CTAs fit an
# SM, the grid has 8 an SM: the next grid's CTAs take the SMs as this one's exit, unevenly).
# memcheck + racecheck on the quantization launches (call 2's probe crashed before the new
# variants), then tools/quant_bw_probe.py: no trigger / trigger at 8 and 9 CTAs an SM / early
# loads / prefetch, beside a copy of the same bytes (~250 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_quant2.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="0 1 2 3 4 5 6 7 8 9 12 16 19 21 22 25 27"
warm_points quant_bw_probe 200 $POINTS
quant_sanitize memcheck racecheck &
quant_report
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 300 python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
echo "done after $(elapsed) s"
