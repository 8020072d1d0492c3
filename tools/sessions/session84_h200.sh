#!/usr/bin/env bash
# Session 84's H200 call (~450 s, H200 only), after session84_first.sh's GPU tests pass: the
# nvfp4_gemm suite at 9216x7168, 5120x17408 and 7168x18432 (issue 5's open M <= 16 rows and
# 7168x18432's 1.5x QuACK at M = 4..64) with the in-flight main loop on (this copy of the
# tree, the device's, gets NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M = 32; the public routes take it
# on their stream-K launches of up to 32 tokens), then the targets report. Against session
# 76-77's rows of the same suites (bench.targets notes/raw --latest --device H200).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_h200.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if ! nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  echo "not an H200: nothing run"; exit 0
fi
sed -i 's/^    INFLIGHT_MAX_TILE_M = 0$/    INFLIGHT_MAX_TILE_M = 32/' \
  "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
grep -n "^    INFLIGHT_MAX_TILE_M" "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
warm_suite nvfp4_gemm 4 1 0
report_warm
suite_targets nvfp4_gemm "1|4|8|16|32|64" 4 1 0
echo "done after $(elapsed) s"
