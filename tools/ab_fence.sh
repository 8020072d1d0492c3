#!/usr/bin/env bash
# Branch loads-fence: the lean staged path up to two row tiles with its loads fenced at the top
# of the step, against main's package (ab_main/). The small-M GPU tests and memcheck (branch
# default f1), tools/variant_check.py in every variant, then tools/loop_ab_probe.py at M = 1 and
# 16 (LOOP_POINTS=staged; 16: the ring path, whose column clamp this branch drops too) for
# main and the variants f1, f2, f4, f5 (tools/loop_variants.py; each its own kernel cache),
# twice, then the demo (f1).
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_fence.sh   (~500 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=staged
VARIANTS="f1 f2 f4 f5"
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "every_tile or fixed_row or matches_fp64 or small_m_split or dependent_chain or graph" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
gpu_tests 280 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "small_m or matches_fp64 or fused" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
run_variant() {  # run_variant NAME SCRIPT CMD...: SCRIPT in that variant's package and cache
  local name=$1 script=$2; shift 2
  if [ "$name" = old ]; then
    PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=/tmp/kc-old "$@" python "tools/$script.py"
  else
    LOOP_VARIANT=$name CUTE_KERNELS_CACHE_DIR=/tmp/kc-$name "$@" python "tools/$script.py"
  fi
}
for v in $VARIANTS; do
  (run_variant $v variant_check timeout 200 > /tmp/logs/check-$v.log 2>&1
   run_variant $v loop_ab_probe env CUTE_KERNELS_BENCH_WARM=1 > /tmp/logs/warm-$v.log 2>&1) &
done
run_variant old loop_ab_probe env CUTE_KERNELS_BENCH_WARM=1 > /tmp/logs/warm-old.log 2>&1 &
wait
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
  for v in $VARIANTS; do tail -1 /tmp/logs/check-$v.log; done
  grep -h -A8 Traceback /tmp/logs/warm-*.log /tmp/logs/check-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
echo "tests + warm-up done after $(elapsed) s"
for round in 1 2; do
  for v in old $VARIANTS; do run_variant $v loop_ab_probe timeout 100 > "$OUT/$v-$round.log" 2>&1; done
  echo "round $round done after $(elapsed) s"
done
for round in 1 2; do
  paste -d' ' <(grep "M=" "$OUT/old-$round.log") <(grep "M=" "$OUT/f1-$round.log") \
    <(grep "M=" "$OUT/f2-$round.log") <(grep "M=" "$OUT/f4-$round.log") \
    <(grep "M=" "$OUT/f5-$round.log") |
    awk '{print $1, $2, $3, $4, $5, $10, $15, $20, $25}' | tee "$OUT/ab$round.txt"
done
CUTE_KERNELS_CACHE_DIR=/tmp/kc-f1 timeout $(( 570 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek|Qwen" "$OUT/demo.log"
