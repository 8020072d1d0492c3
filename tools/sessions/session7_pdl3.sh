#!/usr/bin/env bash
# Session 7: PDL in the fused small-M kernel only (the plain GEMM's ordinary launches again):
# the two chain-in-a-graph tests, tools/pdl_probe.py, the demo.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session7_pdl3.sh
source "$(dirname "$0")/../device_common.sh"
for i in 0 1 2 3 4 5 6; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 200 python tools/pdl_probe.py > /tmp/logs/warm-pdl$i.log 2>&1 &
done
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python tools/pdl_probe.py > /tmp/logs/warm-pdlf.log 2>&1 &
gpu_tests 200 /tmp/logs/t-chain.log tests/test_nvfp4_gemm.py tests/test_nvfp4_gemm_swiglu_quant.py -k "chain or graph" &
wait
echo "warm-up done after $(elapsed) s"; tail -1 /tmp/logs/t-chain.log; grep "^FAILED" /tmp/logs/t-chain.log
timeout 120 python tools/pdl_probe.py 2>&1 | tee "$OUT/pdl.log"
timeout 100 python -m models.demo > "$OUT/demo.log" 2>&1; grep -E "NVFP4" "$OUT/demo.log"
echo "done after $(elapsed) s"
