#!/usr/bin/env bash
# Session 42's sixth call (~150 s): tools/balance_probe.py, the one-token small kernels on row
# counts whose tiles fill the SMs evenly or not (is the busiest SM's stream the bound?).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points balance_probe 200 0 1 2 3 4 5 6 7
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
timeout 150 python tools/balance_probe.py 2>&1 | tee "$OUT/balance_probe.log"
echo "done after $(elapsed) s"
