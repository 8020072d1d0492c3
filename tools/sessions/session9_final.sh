#!/usr/bin/env bash
# Session 9's last device call: the model + quantization GPU tests while the swiglu suite's
# shapes compile, then the swiglu suite and the demo, within ~450 s.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session9_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-models.log tests/models tests/test_nvfp4_quant.py tests/test_gate_up_weight.py &
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python -m models.demo > /tmp/logs/warm-demo.log 2>&1 &
wait
echo "warm-up done after $(elapsed) s"; tail -1 /tmp/logs/t-models.log; grep -E "^FAILED|^E  " /tmp/logs/t-models.log | head
grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
timeout $(( 400 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/bench-swiglu > "$OUT/bench-swiglu.log" 2>&1; echo "swiglu exit $? at $(elapsed) s"
left=$(( 470 - $(elapsed) )); [ "$left" -gt 20 ] && { timeout "$left" python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $? at $(elapsed) s"; }
grep -E "M=1 |M=64 " "$OUT/demo.log" | head
