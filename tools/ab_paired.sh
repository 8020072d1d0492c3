#!/usr/bin/env bash
# The paired-step loop (NVFP4GemmSmallM.PAIRED_STEPS) against main's package: the small-M GPU
# tests, memcheck, tools/loop_ab_probe.py old / new twice on the staged points (M = 1, 16),
# then tools/fused_prefetch_probe.py (the fused kernel's 2..8-token configs), then the demo.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main   (ab_main/ is untracked, so it travels with the tree)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_paired.sh   (~400 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=staged
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "not large and not stream_k and not split_k_route and not hybrid" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
gpu_tests 280 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "small_m or matches_fp64 or fused" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=/tmp/kc-old CUTE_KERNELS_BENCH_WARM=1 \
  timeout 250 python tools/loop_ab_probe.py > /tmp/logs/warm-old.log 2>&1 &
CUTE_KERNELS_BENCH_WARM=1 timeout 250 python tools/loop_ab_probe.py > /tmp/logs/warm-new.log 2>&1 &
for i in 0 1 2 3; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 \
    python tools/fused_prefetch_probe.py > /tmp/logs/warm-fp$i.log 2>&1 &
done
wait
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
echo "tests + warm-up done after $(elapsed) s"
for round in 1 2; do
  PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=/tmp/kc-old timeout 100 python tools/loop_ab_probe.py > "$OUT/old$round.log" 2>&1
  timeout 100 python tools/loop_ab_probe.py > "$OUT/new$round.log" 2>&1
  echo "round $round done after $(elapsed) s"
done
paste -d' ' <(grep "M=" "$OUT/old1.log") <(grep "M=" "$OUT/new1.log") \
  <(grep "M=" "$OUT/old2.log") <(grep "M=" "$OUT/new2.log") |
  awk '{print $1, $2, $3, $4, $5, $10, $15, $20}' | tee "$OUT/ab.txt"
timeout 150 python tools/fused_prefetch_probe.py 2>&1 | tee "$OUT/fused_prefetch.log"
echo "fused probe done after $(elapsed) s"
timeout $(( 580 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek|Qwen" "$OUT/demo.log"
