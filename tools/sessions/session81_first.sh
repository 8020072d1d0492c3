#!/usr/bin/env bash
# Session 81's first call (~330 s on an H200, ~150 s on an H100): the GPU tests of session 80's
# unmeasured work (the balanced ring's bits against the register path's; the wide lanes'
# fp64 checks), then the one-token ring (tools/balanced_ring_probe.py: is the H200's one-token
# GEMM short of bytes in flight?), then on an H200 the nvfp4_gemm suite at 5120x17408 (the
# wide lanes at M = 1024: W4A16 0.89x cuBLAS on plain ranges) and the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_first.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
gpu_tests 200 "$OUT/t-ring.log" tests/test_nvfp4_gemm_balanced.py -k ring &
gpu_tests 200 "$OUT/t-wide-lanes.log" tests/test_stream_k_lanes.py -k wide_lanes &
for i in 0 1 2 3; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 \
    python tools/balanced_ring_probe.py > /tmp/logs/warm-ring$i.log 2>&1 &
done
[ "$h200" = 1 ] && warm_suite nvfp4_gemm 1
report_warm "tests and warm-up"
tail -1 "$OUT/t-ring.log" "$OUT/t-wide-lanes.log"
timeout 120 python tools/balanced_ring_probe.py 2>&1 | tee "$OUT/balanced_ring_probe.log"
echo "ring probe done at $(elapsed) s"
if [ "$h200" = 1 ]; then
  suite_targets nvfp4_gemm "1|4|8|16|1024" 1
fi
echo "done after $(elapsed) s"
