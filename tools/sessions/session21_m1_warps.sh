#!/usr/bin/env bash
# tools/near_miss_probe.py parts 7..16 (the warps of the M = 1 configs), one warm-up process
# per part, with the small-M tile-config GPU tests (3- and 6-warp fused configs among them).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session21_m1_warps.sh   (~250 s)
source "$(dirname "$0")/../device_common.sh"
warm_points near_miss_probe 150 7 8 9 10 11 12 13 14 15 16
gpu_tests 200 /tmp/logs/t-configs.log tests/test_nvfp4_gemm_swiglu_quant.py tests/test_nvfp4_gemm.py -k "every_tile_config or fixed_row_offsets" &
wait
tail -1 /tmp/logs/t-configs.log | tee "$OUT/checks.txt"; grep -E "^FAILED" /tmp/logs/t-configs.log | head
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=7,8,9,10,11,12,13,14,15,16 timeout $(( 290 - $(elapsed) )) python tools/near_miss_probe.py 2>&1 | tee "$OUT/m1_warps.log"
echo "done after $(elapsed) s"
