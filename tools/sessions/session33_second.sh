#!/usr/bin/env bash
# Session 33's second call (~400 s): wg_k_split (64-row tiles, the consumer warpgroups on the K
# groups): its GPU tests (the kernel's default launches are
# byte-identical, checked on the CPU), memcheck and racecheck on tools/sanitize_probe.py (now
# with wg_k_split launches), then tools/wg_k_split_probe.py at every point.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session33_second.sh
source "$(dirname "$0")/../device_common.sh"
timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1  # compiles, warm cache
sanitize memcheck 200 &
sanitize racecheck 230 &
gpu_tests 230 /tmp/logs/t-wgk.log tests/test_wg_k_split.py &
wait
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
test_summary | tee "$OUT/checks.txt"
echo "checks done after $(elapsed) s"
timeout 300 python tools/wg_k_split_probe.py 2>&1 | tee "$OUT/wg_k_split_probe.log"
echo "done after $(elapsed) s"
