#!/usr/bin/env bash
# Session 41's fifth call (~250 s): the weights-before-wait rule (``NVFP4GemmLargeM.
# weights_before_wait``: 4 k-tiles of weights into the stages before the PDL wait, the fused
# kernel 2, on stream-K launches that trigger at two CTAs an SM). Its GPU tests and the PDL
# chains, memcheck and racecheck on tools/sanitize_weights_first.py, then
# tools/prefetch_depth_probe.py (public = the rule against w0 / w2 / w4) at the rule's points
# (36864x7168 and 34816x5120 at M = 16 / 32, plain and fused) and 9216x7168 M = 16 (unchanged).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session41_fifth.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=w0,w2,w4
POINTS="1 9 25 11 26 21 27 28"
gpu_tests 300 /tmp/logs/t-rule.log tests/test_nvfp4_gemm_large_m.py tests/test_pdl_trigger.py \
  -k "weights_before_wait or chain or narrow" &
for tool in memcheck racecheck; do
  (timeout 240 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
     python tools/sanitize_weights_first.py > "$OUT/sanitize-$tool.log" 2>&1
   echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitize-$tool.log" \
     | tail -1)" > "/tmp/logs/s-$tool.txt") &
done
warm_points prefetch_depth_probe 240 $POINTS
wait
test_summary | tee "$OUT/checks.txt"; cat /tmp/logs/s-*.txt | tee -a "$OUT/checks.txt"
echo "checks done after $(elapsed) s"
grep -h -B2 -A8 "Traceback\|DIFFERS" /tmp/logs/warm-*.log | tail -20
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 200 \
  python tools/prefetch_depth_probe.py 2>&1 | tee "$OUT/prefetch_depth_probe.log"
echo "done after $(elapsed) s"
