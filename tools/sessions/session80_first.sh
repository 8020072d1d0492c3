#!/usr/bin/env bash
# Session 80's first call (~150 s; ~230 s on an H200, the card preferred): where the wgmma kernels'
# 16-token stream (issue 5's M <= 16 points) loses its time. tools/stream_shape_probe.py
# times the launch alone with stubbed consumers at one / two / four K groups a stage (weight
# boxes of 32 / 64 / 128 bytes a row) and 4..16 stages, and the real launch at one / two /
# four groups (outputs compared); then the four-group GPU tests; then, on an H200, the read
# floor of the one-token points (tools/read_ceiling_probe.py) and W4A16 5120x17408 M = 1024
# (0.89x cuBLAS, 0.9x asked) in place / on the copy route / NVFP4 tokens
# (tools/w4a16_in_place_probe.py point 13: the W4A4 route, whose pass writes the same bf16
# bytes, took 239.9 us in session 77 against W4A16 in place 253.8).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session80_first.sh
source "$(dirname "$0")/../device_common.sh"
for i in 0 1; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 150 \
    python tools/stream_shape_probe.py > /tmp/logs/warm-stream$i.log 2>&1 &
done
(CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/read_ceiling_probe.py \
  > /tmp/logs/warm-ceiling.log 2>&1) &
(CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=13 timeout 150 \
  python tools/w4a16_in_place_probe.py > /tmp/logs/warm-inplace.log 2>&1) &
report_warm
timeout 150 python tools/stream_shape_probe.py 2>&1 | tee "$OUT/stream_shape_probe.log"
echo "stream probe done at $(elapsed) s"
gpu_tests 120 "$OUT/t-four-groups.log" tests/test_nvfp4_gemm_large_m.py -k four_k_groups
tail -3 "$OUT/t-four-groups.log"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  timeout 90 python tools/read_ceiling_probe.py 2>&1 | tee "$OUT/read_ceiling_probe.log"
  CUTE_KERNELS_BENCH_SHAPES=13 timeout 90 python tools/w4a16_in_place_probe.py 2>&1 \
    | tee "$OUT/w4a16_in_place_probe.log"
fi
echo "done after $(elapsed) s"
