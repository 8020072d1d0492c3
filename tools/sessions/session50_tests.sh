#!/usr/bin/env bash
# Session 50, third call (~560 s): every GPU test on main since session 49 turned the
# asynchronous stream-K fix-up on by default (session 49 ran its own tests and part of the
# wgmma files before its 280 s limits). The ids are split into 12 contiguous shards run side
# by side (-v, so a shard cut by its time limit still shows what passed).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_tests.sh
source "$(dirname "$0")/../device_common.sh"
python -m pytest -m gpu --collect-only -q -p no:cacheprovider 2>/dev/null | grep '::' \
  > /tmp/ids.txt
echo "$(wc -l < /tmp/ids.txt) GPU tests"
split -n l/12 /tmp/ids.txt /tmp/shard.
shards=(/tmp/shard.*)
set -f  # (test ids hold [...]: no globbing)
for f in "${shards[@]}"; do
  timeout 530 python -m pytest -v -p no:cacheprovider $(cat "$f") \
    > "/tmp/logs/t-$(basename "$f").log" 2>&1 &
done
wait
set +f
echo "tests done after $(elapsed) s"
cat /tmp/logs/t-shard.*.log > "$OUT/gpu-tests.log"
echo "passed $(grep -c ' PASSED' "$OUT/gpu-tests.log"), failed $(grep -c ' FAILED' "$OUT/gpu-tests.log"), errors $(grep -c ' ERROR' "$OUT/gpu-tests.log")"
for f in /tmp/logs/t-shard.*.log; do echo "$(basename "$f"): $(tail -1 "$f")"; done
grep -E ' FAILED| ERROR|^FAILED|^ERROR' "$OUT/gpu-tests.log" | head -20
echo "done after $(elapsed) s"
