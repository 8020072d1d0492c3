#!/usr/bin/env bash
# Session 79's second call (~560 s, H200): the read ceiling of the open one-token points
# (tools/read_ceiling_probe.py: our bf16 and fp8 GEMVs and a copy of the same bytes beside the public M = 1
# GEMM, ~40 s), then session 75's second call (the nvfp4_gemm suite's 36864x7168, 34816x5120,
# 7168x2048, the 4096x7168 and 9216x7168 rows on today's routes; W4A16 7168x2048 M = 256 is
# still session 44's row in the targets report).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session79_second.sh
source "$(dirname "$0")/../device_common.sh"
(CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/read_ceiling_probe.py \
  > /tmp/logs/warm-ceiling.log 2>&1) &
warm_suite nvfp4_gemm 2 3 4 5 6
report_warm
timeout 90 python tools/read_ceiling_probe.py 2>&1 | tee "$OUT/read_ceiling_probe.log"
echo "read ceiling done at $(elapsed) s"
run_suite nvfp4_gemm 110 2 3 5 6 4
suite_lines "1|4|8|16"
python -m cute_kernels.bench.targets "$OUT" --open
echo "done after $(elapsed) s"
