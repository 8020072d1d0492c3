#!/usr/bin/env bash
# Session 4, device call 3: GPU tests of the changed regimes, racecheck, the fused small-M
# config probe (cache filled by parallel warm-up processes first), the demo.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session4_run3.sh
source "$(dirname "$0")/../device_common.sh"
sanitize racecheck 240 &
tests() { gpu_tests 300 "$OUT/t-$(basename "$1" .py).log" "$@"; }
tests tests/test_nvfp4_gemm_swiglu_quant.py &
tests tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_large_m.py &
tests tests/models tests/test_silu_mul.py &
for s in 0 1 2 3 4; do for m in 1 8 16 32; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$s timeout 280 python tools/swiglu_config_probe.py $m > "$OUT/warm-cfg$s-$m.log" 2>&1 &
done; done
wait
echo "warm-up + tests done after $(( $(date +%s) - t0 )) s"; cat "$OUT/racecheck.txt"
grep -l -E "Error|Traceback" "$OUT"/warm-*.log | head
for f in "$OUT"/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR" "$f" | head -6; done
timeout 200 python tools/swiglu_config_probe.py 2>&1 | tee "$OUT/swiglu_config_probe.log"
echo "probe done after $(( $(date +%s) - t0 )) s"
timeout $(( 570 - ($(date +%s) - t0) )) python -m models.demo > "$OUT/demo.log" 2>&1; echo "demo exit $?"
grep -E "M=64|M=1 " "$OUT/demo.log"
