#!/usr/bin/env bash
# A/B of the two permuted layouts in one device call: this branch's (pairs by rotation and
# multiply) against main's, each through tools/pair3_probe.py (permuted words against packed
# bytes, which both share), shape by shape, in turn, twice.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main   (ab_main/ is untracked, so it travels with the tree)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_layouts.sh
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing (see the header)"; exit 2; }
gpu_tests 150 /tmp/logs/t-ab.log tests/test_permuted_fp4.py -k "small_m_equals_standard or matches_fp64 or large_m_paths or fused" &
for i in 0 1 2 3 4 5; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/pair3_probe.py > /tmp/logs/warm-new$i.log 2>&1 &
  PYTHONPATH="$PWD/ab_main:$PYTHONPATH" CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/pair3_probe.py > /tmp/logs/warm-old$i.log 2>&1 &
done
wait
tail -1 /tmp/logs/t-ab.log; grep -E "^FAILED|^E  " /tmp/logs/t-ab.log | head -8
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -8
echo "tests + warm-up done after $(elapsed) s"
for round in 1 2; do
  for i in 0 1 2 3 4 5; do
    echo "old: $(PYTHONPATH="$PWD/ab_main:$PYTHONPATH" CUTE_KERNELS_BENCH_SHAPES=$i timeout 60 python tools/pair3_probe.py 2>&1 | tail -1)"
    echo "new: $(CUTE_KERNELS_BENCH_SHAPES=$i timeout 60 python tools/pair3_probe.py 2>&1 | tail -1)"
  done
done | tee "$OUT/ab_layouts.log"
echo "done after $(elapsed) s"
