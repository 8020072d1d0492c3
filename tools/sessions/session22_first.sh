#!/usr/bin/env bash
# Session 22's first call: the fused tile-config GPU tests (3- and 6-warp configs, the public
# 3-warp launch) beside near_miss_probe parts 17 / 18's warm-up, then both suites (the swiglu
# suite confirms the 3-warp M = 1 rule on 34816x5120, issue 6; nothing else on the GPU while
# they time), then parts 17 and 18 (3 warps on packed words and at M = 2 / 4).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session22_first.sh   (~380 s)
source "$(dirname "$0")/../device_common.sh"
warm_points near_miss_probe 150 17 18
gpu_tests 150 /tmp/logs/t-configs.log tests/test_nvfp4_gemm_swiglu_quant.py -k "every_tile_config or one_token" &
wait
tail -1 /tmp/logs/t-configs.log | tee "$OUT/checks.txt"; grep -E "^FAILED" /tmp/logs/t-configs.log | head
bash "$(dirname "$0")/session21_suites.sh"
CUTE_KERNELS_BENCH_SHAPES=17,18 timeout 100 python tools/near_miss_probe.py 2>&1 | tee "$OUT/m1_packed.log"
echo "done after $(elapsed) s"
