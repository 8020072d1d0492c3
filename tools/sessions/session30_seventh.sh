#!/usr/bin/env bash
# Session 30's seventh call (~200 s): tools/fused_split_pdl_probe.py with the fused kernel on
# the split-K launch ("pieces"), its GPU test, and the split tests of the large-M kernel.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_seventh.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-pieces.log tests/test_nvfp4_gemm_swiglu_quant.py -k "pieces" &
gpu_tests 200 /tmp/logs/t-split.log tests/test_nvfp4_gemm_large_m.py -k "split" &
warm_points fused_split_pdl_probe 150 0 1 2 3 4 6
wait
test_summary
echo "tests and warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=0,1,2,3,4,6 timeout 150 python tools/fused_split_pdl_probe.py 2>&1 \
  | tee "$OUT/fused_split_pdl.log"
echo "done after $(elapsed) s"
