#!/usr/bin/env bash
# Session 15, call 3: tools/wave_config_probe.py (plain-GEMM configs against the defaults with
# PDL for one wave of register-path CTAs), then the swiglu suite for the closing table (its
# configs do not come from the plain GEMM's permuted rules), then the demo.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session15_sweep_swiglu.sh   (~400 s)
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/wave_config_probe.py > "/tmp/logs/warm-wave$i.log" 2>&1 &
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out "/tmp/warm-swiglu$i" > "/tmp/logs/warm-swiglu$i.log" 2>&1 &
done
python -m models.demo > /tmp/logs/warm-demo.log 2>&1 &
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 150 python tools/wave_config_probe.py 2>&1 | tee "$OUT/wave_config_probe.log"
echo "probe done after $(elapsed) s"
timeout $(( 520 - $(elapsed) )) python -m cute_kernels.bench swiglu --out "$OUT" 2>&1 | tee "$OUT/swiglu.log"
echo "swiglu done after $(elapsed) s"
timeout $(( 590 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek|Qwen" "$OUT/demo.log"
