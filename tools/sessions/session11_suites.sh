#!/usr/bin/env bash
# One suite, packed and permuted rows, for the issues' closing tables: SUITE = nvfp4_gemm or
# swiglu. One warm-up process per shape fills the kernel cache, then the timed run; its table
# is shown and kept with the JSON / PNG in $OUT.
# Usage on the lent H200: source .gpu/setup.sh; [TESTS=... [TESTS_K=...]] bash tools/sessions/session11_suites.sh nvfp4_gemm
source "$(dirname "$0")/../device_common.sh"
suite=${1:?nvfp4_gemm or swiglu}
shapes=$([ "$suite" = swiglu ] && echo 5 || echo 7)
for ((i = 0; i < shapes; i++)); do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python -m cute_kernels.bench "$suite" --out "/tmp/warm-$suite$i" > "/tmp/logs/warm-$suite$i.log" 2>&1 &
done
# TESTS="pytest args" [TESTS_K="a -k expression"]: GPU tests alongside the warm-up (reported
# before the timed run)
if [ -n "${TESTS:-}" ]; then
  if [ -n "${TESTS_K:-}" ]; then gpu_tests 280 /tmp/logs/t-extra.log $TESTS -k "$TESTS_K" &
  else gpu_tests 280 /tmp/logs/t-extra.log $TESTS & fi
fi
wait
[ -n "${TESTS:-}" ] && { tail -1 /tmp/logs/t-extra.log; grep -E "^FAILED|^E  " /tmp/logs/t-extra.log | head -6; } | tee "$OUT/tests.txt"
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout $(( 590 - $(elapsed) )) python -m cute_kernels.bench "$suite" --out "$OUT" 2>&1 | tee "$OUT/$suite.log"
echo "done after $(elapsed) s"
