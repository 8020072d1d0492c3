#!/usr/bin/env bash
# Session 36's third call (~350 s): the activations' pass spread over the SMs
# (``bf16_activations(spread=True)``). Its GPU test, then tools/trigger_timeline.py with the
# spread form and tools/pass_spread_probe.py (compiled in parallel first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session36_spread.sh
source "$(dirname "$0")/../device_common.sh"
warm_points trigger_timeline 240 0 1 2 3
warm_points pass_spread_probe 240 $(seq 0 13)
gpu_tests 200 /tmp/logs/t-spread.log tests/test_nvfp4_dequant.py tests/test_permuted_fp4.py \
  -k "spread or dequantize or padded"
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
test_summary | tee "$OUT/checks.txt"
timeout 100 python tools/trigger_timeline.py > "$OUT/trigger_timeline.log" 2>&1
timeout 240 python tools/pass_spread_probe.py 2>&1 | tee "$OUT/pass_spread_probe.log"
echo "done after $(elapsed) s"
grep -h -E "trigger=|mean|per call" "$OUT/trigger_timeline.log"
