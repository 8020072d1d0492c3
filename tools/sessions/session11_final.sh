#!/usr/bin/env bash
# Session 11 close: the fused kernel's GPU tests (the new large-M route among them), the
# permuted-word and model tests, memcheck on the sanitize probe, the swiglu suite (fused
# against the pair, packed and permuted), then the demo. < 450 s.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session11_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 280 /tmp/logs/t-permuted.log tests/test_permuted_fp4.py tests/models &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200) &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
wait
{ echo "tests + warm-up done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
  grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head; } > "$OUT/checks.txt" 2>&1
cat "$OUT/checks.txt"
timeout $(( 520 - $(elapsed) )) python -m cute_kernels.bench swiglu --out "$OUT" > "$OUT/swiglu.log" 2>&1
echo "swiglu exit $? at $(elapsed) s"
timeout $(( 580 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"
grep -E "permuted" "$OUT/swiglu.log" | awk '{print $3, $4, $5, $6, $12, $13, $14}'
tail -30 "$OUT/demo.log"
