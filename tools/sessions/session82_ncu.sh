#!/usr/bin/env bash
# Session 82's ncu call (~150 s, either card): the 16-token stream-K launch at 9216x7168
# M = 16 real / stubbed / bare and the fp8 GEMV of its bytes under Nsight Compute
# (tools/stream_profile.py): duration, DRAM throughput, and the per-SM active cycles' spread.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_ncu.sh
source "$(dirname "$0")/../device_common.sh"
timeout 120 python tools/stream_profile.py > /tmp/logs/warm-profile.log 2>&1  # compiles
tail -n 3 /tmp/logs/warm-profile.log
metrics=sm__cycles_active.min,sm__cycles_active.max,sm__cycles_active.avg
metrics=$metrics,sm__cycles_elapsed.max,dram__bytes_read.sum
timeout 300 ncu --profile-from-start off --section SpeedOfLight --metrics "$metrics" \
  python tools/stream_profile.py > "$OUT/stream-ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -E "^  [a-zA-Z_]|Duration|DRAM Throughput|Memory Throughput|sm__cycles|dram__bytes" \
  "$OUT/stream-ncu.txt" | head -80
