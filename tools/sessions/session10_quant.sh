#!/usr/bin/env bash
# Session 10 (quant-bw): the threshold encode of nvfp4_quantize / silu_mul_nvfp4_quant (the
# probe's variants since then: the defaults against the next item's loads in flight, in
# registers or through a cp.async ring). The GPU tests of the quantization kernels (the ring's
# among them), the models and the dequantize / permuted kernels, memcheck and racecheck on
# small quantization / dequantize launches, then activation_probe.py and
# tools/quant_bw_probe.py (old against new configs, % of copy, outputs compared), < 400 s.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session10_quant.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 230 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py &
gpu_tests 230 /tmp/logs/t-models.log tests/models &
gpu_tests 230 /tmp/logs/t-dequant.log tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py &
# compile every probe kernel in parallel (shape indices 0-3: plain K's, 8-11: fused K's)
for i in 0 1 2 3 8 9 10 11; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 \
    python tools/quant_bw_probe.py > "/tmp/logs/warm-q$i.log" 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python tools/activation_probe.py > /tmp/logs/warm-act.log 2>&1 &
(timeout 200 python tools/quant_sanitize_probe.py > /tmp/logs/qprobe.log 2>&1
 for tool in memcheck racecheck; do
   timeout 150 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 \
     python tools/quant_sanitize_probe.py > /tmp/logs/$tool.log 2>&1
   echo "$tool exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/logs/$tool.log | tail -1)"
 done > "$OUT/memcheck.txt") &
wait
{ echo "tests + warm-up + memcheck done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/qprobe.log; cat "$OUT/memcheck.txt"
  grep -l -E "Error|Traceback" /tmp/logs/warm-q*.log | head; } > "$OUT/checks.txt" 2>&1
cat "$OUT/checks.txt"
grep -h -A12 Traceback /tmp/logs/warm-q*.log | tail -14
echo "probes start at $(elapsed) s"
timeout 60 python tools/activation_probe.py 2>&1 | tee "$OUT/activation_probe.log"
left=$(( 560 - $(elapsed) ))
timeout "$left" python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
