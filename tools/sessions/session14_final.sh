#!/usr/bin/env bash
# Session 14's last call: memcheck + racecheck on tools/sanitize_probe.py, the small-M GEMM,
# fused, model and permuted GPU tests on the final tree, then tools/m16_config_probe.py
# (12 / 16 tokens: the default configs against the register prefetch at three CTAs per SM).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session14_final.sh   (~450 s)
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
# the large-M kernels are unchanged this session (their cubins compared on the CPU)
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "not large and not stream_k and not split_k_route and not hybrid" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
gpu_tests 280 /tmp/logs/t-models.log tests/models tests/test_permuted_fp4.py &
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/m16_config_probe.py > "/tmp/logs/warm-m16-$i.log" 2>&1 &
done
wait
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
echo "checks done after $(elapsed) s"
timeout $(( 480 - $(elapsed) )) python tools/m16_config_probe.py 2>&1 | tee "$OUT/m16.log"
echo "done after $(elapsed) s"
