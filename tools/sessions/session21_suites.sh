#!/usr/bin/env bash
# Session 21's closing measurements in one device call: both issue suites (packed and permuted
# rows) and near_miss_probe parts 4..6, their warm-ups in parallel (15 processes), then the
# timed runs one at a time, most needed first (swiglu, nvfp4_gemm, the probe), each held to
# the time left.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session21_suites.sh   (~500 s)
source "$(dirname "$0")/../device_common.sh"
for suite in swiglu nvfp4_gemm; do
  shapes=$([ "$suite" = swiglu ] && echo 5 || echo 7)
  for ((i = 0; i < shapes; i++)); do
    CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 \
      python -m cute_kernels.bench "$suite" --out "/tmp/warm-$suite$i" > "/tmp/logs/warm-$suite$i.log" 2>&1 &
  done
done
warm_points near_miss_probe 200 4 5 6
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
for suite in swiglu nvfp4_gemm; do
  mkdir -p "$OUT/$suite"
  timeout $(( 585 - $(elapsed) )) python -m cute_kernels.bench "$suite" --out "$OUT/$suite" > "$OUT/$suite/$suite.log" 2>&1
  echo "$suite done after $(elapsed) s"
done
CUTE_KERNELS_BENCH_SHAPES=4,5,6 timeout $(( 590 - $(elapsed) )) python tools/near_miss_probe.py > "$OUT/near_miss_probe.log" 2>&1
echo "done after $(elapsed) s"
