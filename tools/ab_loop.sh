#!/usr/bin/env bash
# The small-M loop change against main's package in one device call: GPU tests of the small-M
# paths, memcheck on the sanitize probe, then tools/loop_ab_probe.py with main's package
# (ab_main/) and this tree's in turn, twice.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main   (ab_main/ is untracked, so it travels with the tree)
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_loop.sh
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing (see the header)"; exit 2; }
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "not large and not stream_k and not split_k_route" &
gpu_tests 280 /tmp/logs/t-perm.log tests/test_permuted_fp4.py tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1; sanitize memcheck 240) &
for i in $(seq 0 12); do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/loop_ab_probe.py > /tmp/logs/warm-new$i.log 2>&1 &
  PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python tools/loop_ab_probe.py > /tmp/logs/warm-old$i.log 2>&1 &
done
wait
{ for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -10; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
echo "tests + warm-up done after $(elapsed) s"
for round in 1 2; do
  PYTHONPATH="$PWD/ab_main:${PYTHONPATH:-}" timeout 150 python tools/loop_ab_probe.py > "$OUT/old$round.log" 2>&1
  timeout 150 python tools/loop_ab_probe.py > "$OUT/new$round.log" 2>&1
  echo "round $round done after $(elapsed) s"
done
paste -d' ' <(grep "M=" "$OUT/old1.log") <(grep "M=" "$OUT/new1.log") \
  <(grep "M=" "$OUT/old2.log") <(grep "M=" "$OUT/new2.log") | awk '{print $1, $2, $3, $4, $5, $10, $15, $20}' | tee "$OUT/ab.txt"
timeout $(( 590 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; tail -25 "$OUT/demo.log"
