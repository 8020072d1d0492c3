#!/usr/bin/env bash
# Prepared in session 26 for session 27's first call (~150 s): tools/packed_small_m_probe.py
# (the fused op on packed words at 4096x7168 M = 9 / 12 / 16 and 36864x7168 M = 8, where the
# swiglu suite had it under the unfused pair: its configs, the pair and the small-M split
# route). Every config compiles on the CPU (registers 80-173, session 26).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points packed_small_m_probe 120 0 1 2 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 Traceback /tmp/logs/warm-*.log | tail -12
timeout 120 python tools/packed_small_m_probe.py 2>&1 | tee "$OUT/packed_small_m.log"
echo "done after $(elapsed) s"
