#!/usr/bin/env bash
# Session 46 (issue 4, prepared in session 45, ~400 s): the quantization ring filled by bulk
# copies (``NVFP4Quant(ring, bulk=True)``, built in session 45 without device time;
# notes/quant-bw.md "Session 45"). Lane 0 of a warp issues one cp.async.bulk an item part on
# the slot's mbarrier, 2-4 items (4-8 KB) in flight a warp without registers, the first ones
# before the threshold table fill. The GPU tests of the quantization kernels (the bulk ring's
# bit tests among them), memcheck + racecheck on tools/quant_sanitize_probe.py (bulk launches
# on 3 CTAs cycle every slot's mbarrier), then tools/quant_bw_probe.py at plain M = 4096
# K = 5120 / 7168 / 17408 / 18432, M = 16384 K = 5120 and fused M = 4096 I = 5120, every
# variant's outputs compared with the old kernel's.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session46_quant.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 230 /tmp/logs/t-quant.log tests/test_nvfp4_quant.py tests/test_silu_mul.py &
POINTS="0 1 2 3 4 8"
warm_points quant_bw_probe 250 $POINTS
quant_sanitize memcheck racecheck &
quant_report
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 200 python tools/quant_bw_probe.py \
  2>&1 | tee "$OUT/quant_bw_probe.log"
echo "done after $(elapsed) s"
