#!/usr/bin/env bash
# Session 31's fifth call (~150 s): tools/pass_share_probe.py on the fused op's 1024x7168 rows
# under cuBLAS + silu (M = 1024 on the wide pieces since this session, M = 4096 / 16384): what
# the activations' bf16 pass costs the op there, i.e. what overlapping it with the GEMM
# could win.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_fifth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pass_share_probe 200 5 7 8
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=5,7,8 timeout 200 python tools/pass_share_probe.py 2>&1 \
  | tee "$OUT/pass_share_probe.log"
echo "done after $(elapsed) s"
