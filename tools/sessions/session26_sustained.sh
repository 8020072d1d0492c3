#!/usr/bin/env bash
# Session 26, call 3 (~300 s): tools/sustained_probe.py (each M >= 256 launch in its own
# power-capped steady state, with the SM clock and power sampled alongside into
# $OUT/smi.csv), then quant_bw_probe's plain half-item variants at M = 4096 K = 5120 / 7168
# and M = 16384 K = 5120.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session26_sustained.sh
source "$(dirname "$0")/../device_common.sh"
warm_points sustained_probe 200 0 1 2 3 4 5 6 7
warm_points quant_bw_probe 150 0 1 4
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
(nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
   --format=csv,noheader -lms 50 > "$OUT/smi.csv" 2>&1) &
smi=$!
timeout 240 python tools/sustained_probe.py 2>&1 | tee "$OUT/sustained.log"
kill $smi 2>/dev/null
echo "sustained done after $(elapsed) s"
CUTE_KERNELS_BENCH_SHAPES=0,1,4 timeout 90 python tools/quant_bw_probe.py 2>&1 | tee "$OUT/quant_bw_probe.log"
echo "done after $(elapsed) s"
