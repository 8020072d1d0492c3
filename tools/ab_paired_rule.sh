#!/usr/bin/env bash
# The paired-step loop limited to >= 16 steps a warp (PAIRED_MIN_STEPS), against main's
# package: its GPU tests, memcheck, then tools/loop_ab_probe.py old / new twice at M = 1, 2 on
# 7168x18432 (18 steps a warp: paired) and 36864x7168 (7: main's loop again).
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_paired_rule.sh   (~250 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
export LOOP_POINTS=few LOOP_MS=1,2 CUTE_KERNELS_BENCH_SHAPES=0,2
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "paired or every_scale_byte or fixed_row" &
(timeout 120 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 200) &
PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=/tmp/kc-old CUTE_KERNELS_BENCH_WARM=1 \
  timeout 150 python tools/loop_ab_probe.py > /tmp/logs/warm-old.log 2>&1 &
CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/loop_ab_probe.py > /tmp/logs/warm-new.log 2>&1 &
wait
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  grep "paired" /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
echo "tests + warm-up done after $(elapsed) s"
for round in 1 2; do
  PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=/tmp/kc-old timeout 40 python tools/loop_ab_probe.py > "$OUT/old$round.log" 2>&1
  timeout 40 python tools/loop_ab_probe.py > "$OUT/new$round.log" 2>&1
done
paste -d' ' <(grep "M=" "$OUT/old1.log") <(grep "M=" "$OUT/new1.log") \
  <(grep "M=" "$OUT/old2.log") <(grep "M=" "$OUT/new2.log") |
  awk '{print $1, $2, $3, $4, $5, $10, $15, $20}' | tee "$OUT/ab.txt"
echo "done after $(elapsed) s"
