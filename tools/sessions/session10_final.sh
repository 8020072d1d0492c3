#!/usr/bin/env bash
# Session 10, last call: every GPU test the session's changes touch (quantization defaults and
# the early-load option, the unit-scale dequantize on quarter groups, the split-K torch.sum,
# the new routes: gemm + large-M, fused, dequantize + permuted, models), memcheck on the
# quantization / dequantize launches, while the probes compile; then quant_bw_probe.py,
# activation_probe.py, mid_m_probe.py on the re-routed points, the demo on permuted and on
# packed weights, and the swiglu suite on 36864x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session10_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 380 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 380 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 380 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py tests/models &
(timeout 150 python tools/quant_sanitize_probe.py > /tmp/logs/qprobe.log 2>&1
 timeout 150 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
   python tools/quant_sanitize_probe.py > /tmp/logs/memcheck.log 2>&1
 echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' /tmp/logs/memcheck.log | tail -1)" > /tmp/logs/memcheck.txt) &
for i in 0 1 2 3 8 9 10 11; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/quant_bw_probe.py > "/tmp/logs/warm-q$i.log" 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 250 python tools/activation_probe.py > /tmp/logs/warm-act.log 2>&1 &
CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=1,2,4,7 timeout 250 python tools/mid_m_probe.py > /tmp/logs/warm-mid.log 2>&1 &
CUTE_KERNELS_BENCH_WARM=1 timeout 250 python -m models.demo > /tmp/logs/warm-demo.log 2>&1 &
CUTE_KERNELS_PERMUTED_WEIGHTS=0 CUTE_KERNELS_BENCH_WARM=1 timeout 250 python -m models.demo > /tmp/logs/warm-demo0.log 2>&1 &
CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=0 timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm-sw > /tmp/logs/warm-swiglu.log 2>&1 &
wait
{ echo "tests + warm-up + memcheck done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR" "$f" | head -8; done
  tail -1 /tmp/logs/qprobe.log; cat /tmp/logs/memcheck.txt
  grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head; } > "$OUT/checks.txt" 2>&1
cat "$OUT/checks.txt"
timeout 90 python tools/quant_bw_probe.py > "$OUT/quant_bw_probe.log" 2>&1; echo "quant probe exit $? at $(elapsed) s"
timeout 30 python tools/activation_probe.py 2>&1 | tee "$OUT/activation_probe.log"
CUTE_KERNELS_BENCH_SHAPES=1,2,4,7 timeout 60 python tools/mid_m_probe.py 2>&1 | tee "$OUT/mid_m.log"
timeout 60 python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"
CUTE_KERNELS_PERMUTED_WEIGHTS=0 timeout 60 python -m models.demo > "$OUT/demo-standard.log" 2>&1; echo "standard demo exit $? at $(elapsed) s"
grep -E "M=1 " "$OUT/demo.log" "$OUT/demo-standard.log" | head -12
CUTE_KERNELS_BENCH_SHAPES=0 timeout $(( 590 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/swiglu-out > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
sed -n '/== summary/,$p' "$OUT/quant_bw_probe.log"
