#!/usr/bin/env bash
# Issue 4, prepared in session 70 without a device (~330 s): the quantization kernel with the
# next two items' loads in flight (``NVFP4Quant(prefetch=2)``: three register buffers trading
# roles, 96 registers, 5 CTAs an SM; notes/quant-bw.md "Session 70"). Its bit tests beside the
# probe's warm-ups, memcheck + racecheck on tools/quant_sanitize_probe.py (a prefetch=2 launch
# among them), then tools/quant_bw_probe.py at plain M = 4096 K = 5120 / 7168 / 17408 / 18432
# and M = 16384 K = 5120 (variant cmp5tp2 beside the default cmp6tp; every variant's outputs
# compared with the old kernel's).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session71_quant.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 230 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py -k "two_items or every_kernel" &
POINTS="0 1 2 3 4"
warm_points quant_bw_probe 250 $POINTS
quant_sanitize memcheck racecheck &
quant_report
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 200 python tools/quant_bw_probe.py \
  2>&1 | tee "$OUT/quant_bw_probe.log"
echo "done after $(elapsed) s"
