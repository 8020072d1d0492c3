#!/usr/bin/env bash
# Session 80's tenth call (~200 s on an H200, ~120 s on an H100): the wide lanes rule
# (large_m_plans.wide_stream_k_lanes: 8 lanes of the 256-token stream-K past 32 row tiles on
# big activations) through its GPU test, then on an H200 the nvfp4_gemm suite at 5120x17408
# (W4A16 M = 1024: 0.89x cuBLAS on plain ranges) and the targets report; on an H100
# tools/lanes_w4a16_probe.py point 0 (the public op against plain ranges forced).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_tenth.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
gpu_tests 150 "$OUT/t-wide-lanes.log" tests/test_stream_k_lanes.py -k wide_lanes &
if [ "$h200" = 1 ]; then
  warm_suite nvfp4_gemm 1
else
  (CUTE_KERNELS_PROBE_VARIANTS=plan,l1,w4a4,w4a4_l1,cublas CUTE_KERNELS_BENCH_WARM=1 \
    CUTE_KERNELS_BENCH_SHAPES=0 timeout 150 python tools/lanes_w4a16_probe.py \
    > /tmp/logs/warm-lanes0.log 2>&1) &
fi
report_warm "tests and warm-up"
tail -3 "$OUT/t-wide-lanes.log"
if [ "$h200" = 1 ]; then
  suite_targets nvfp4_gemm "1|4|8|16|1024" 1
else
  CUTE_KERNELS_PROBE_VARIANTS=plan,l1,w4a4,w4a4_l1,cublas CUTE_KERNELS_BENCH_SHAPES=0 \
    timeout 100 python tools/lanes_w4a16_probe.py 2>&1 | tee "$OUT/lanes_w4a16_probe.log"
fi
echo "done after $(elapsed) s"
