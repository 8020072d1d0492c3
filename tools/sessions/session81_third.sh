#!/usr/bin/env bash
# Session 81's third call (~120 s on an H100, ~400 s on an H200): the GPU tests of calls 1-2's
# fixes (8-token tiles' 16-bit epilogue, the balanced ring without remainder blocks), then
# tools/tile8_rule_probe.py (the public op with 8-token stream-K tiles at W4A16 M = 4 / 8);
# on an H200 also the ring and 8-token launch probes, and the nvfp4_gemm suite at 5120x17408
# (the wide lanes at M = 1024) with the targets report.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_third.sh
source "$(dirname "$0")/../device_common.sh"
h200=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -c H200)
gpu_tests 200 "$OUT/t-tile8.log" tests/test_nvfp4_gemm_large_m.py -k eight_token &
gpu_tests 200 "$OUT/t-ring.log" tests/test_nvfp4_gemm_balanced.py -k ring &
warm_points tile8_rule_probe 250 0 1 2 3 4 5
if [ "$h200" = 1 ]; then
  warm_points balanced_ring_probe 200 0 1 2 3
  warm_points tile8_probe 200 0 1 2 3
  warm_suite nvfp4_gemm 1
fi
report_warm "tests and warm-up"
for f in "$OUT/t-tile8.log" "$OUT/t-ring.log"; do tail -n 1 "$f"; done
timeout 200 python tools/tile8_rule_probe.py 2>&1 | tee "$OUT/tile8_rule_probe.log"
echo "rule probe done at $(elapsed) s"
if [ "$h200" = 1 ]; then
  timeout 120 python tools/tile8_probe.py 2>&1 | tee "$OUT/tile8_probe.log"
  timeout 120 python tools/balanced_ring_probe.py 2>&1 | tee "$OUT/balanced_ring_probe.log"
  suite_targets nvfp4_gemm "1|4|8|16|1024" 1
fi
echo "done after $(elapsed) s"
