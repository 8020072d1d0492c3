#!/usr/bin/env bash
# Session 47's fourth call (~330 s): ``act_decode`` with the decode shared between the consumers
# and warps 1..3 of the producer warpgroup (``act_warp_rows``). Call 1: the decode warps alone
# lost 1.8-1.9x to the kernel on the pass's activations; call 2: the consumers alone 1.39x /
# 1.40x (1024x7168 M = 4096 / 16384, fused 106.5 / 397.5 against 76.6 / 283.0 us). The GPU
# tests (the same bits as on the pass), memcheck + racecheck on tools/sanitize_probe.py (its
# act_decode launches at the end), then tools/act_decode_probe.py at its four points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session47_hybrid.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-decode.log tests/test_act_decode.py &
sanitize_both
warm_points act_decode_probe 250 0 1 2 3
report_warm
test_summary
tail -2 /tmp/logs/probe.log
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt" 2>/dev/null | grep -E "SUMMARY|exit" | head
timeout 200 python tools/act_decode_probe.py 2>&1 | tee "$OUT/act_decode_probe.log"
echo "done after $(elapsed) s"
