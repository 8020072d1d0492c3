#!/usr/bin/env bash
# Session 16: the wgmma kernel keeping one wgmma group in flight (the tree) against the
# package copy ab_main/ (the same tree before that change and before 32-token stream-K tiles
# at M <= 32), through the public functions at M = 32, 64, 256 (tools/loop_ab_probe.py, two
# rounds, output digests); alongside, the large-M GPU tests and memcheck + racecheck.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_inflight.sh   (~450 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/ missing"; exit 2; }
export LOOP_MS=32,64,256
gpu_tests 300 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large or stream or split_route" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
for dir in ab_main .; do
  for i in $(seq 0 12); do
    if [ "$dir" = . ]; then pp=""; cache=/tmp/kcache; else pp="$PWD/$dir:"; cache=/tmp/kc-$dir; fi
    env PYTHONPATH="$pp${PYTHONPATH:-}" CUTE_KERNELS_CACHE_DIR=$cache CUTE_KERNELS_BENCH_WARM=1 \
      CUTE_KERNELS_BENCH_SHAPES=$i timeout 280 python tools/loop_ab_probe.py > "/tmp/logs/warm-ab-${dir//[.\/]/_}$i.log" 2>&1 &
  done
done
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
ab_rounds 90 2 ab_main .
echo "done after $(elapsed) s"
