#!/usr/bin/env bash
# Second A/B of the small-M loop: main's package (ab_main/, see ab_loop.sh) against this tree
# in four variants (LOOP_VARIANT of tools/loop_ab_probe.py; each its own kernel cache, since
# the variants patch class attributes the cache key does not see), the points that moved most,
# twice; the small-M GPU tests of the fused and permuted kernels meanwhile.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_loop2.sh
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=few
gpu_tests 330 /tmp/logs/t-perm.log tests/test_permuted_fp4.py -k "small_m or matches_fp64 or fused" &
gpu_tests 330 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
run_variant() {  # run_variant NAME [shape]: the probe in that variant's package and cache
  local name=$1; shift
  if [ "$name" = old ]; then
    PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=/tmp/kc-old "$@" python tools/loop_ab_probe.py
  else
    LOOP_VARIANT=$name CUTE_KERNELS_CACHE_DIR=/tmp/kc-$name "$@" python tools/loop_ab_probe.py
  fi
}
for v in old v1 v2 v3 v4; do
  for i in 0 1 2 3 4 5 6 7 8; do
    run_variant $v env CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i > /tmp/logs/warm-$v$i.log 2>&1 &
  done
done
wait
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
echo "tests + warm-up done after $(elapsed) s"
for round in 1 2; do
  for v in old v1 v2 v3 v4; do
    run_variant $v timeout 120 > "$OUT/$v-$round.log" 2>&1
  done
  echo "round $round done after $(elapsed) s"
done
paste -d' ' <(grep "M=" "$OUT/old-1.log") <(grep "M=" "$OUT/v1-1.log") <(grep "M=" "$OUT/v2-1.log") \
  <(grep "M=" "$OUT/v3-1.log") <(grep "M=" "$OUT/v4-1.log") | awk '{print $1, $2, $3, $4, $5, $10, $15, $20, $25}' | tee "$OUT/ab1.txt"
paste -d' ' <(grep "M=" "$OUT/old-2.log") <(grep "M=" "$OUT/v1-2.log") <(grep "M=" "$OUT/v2-2.log") \
  <(grep "M=" "$OUT/v3-2.log") <(grep "M=" "$OUT/v4-2.log") | awk '{print $1, $2, $3, $4, $5, $10, $15, $20, $25}' | tee "$OUT/ab2.txt"
echo "done after $(elapsed) s"
