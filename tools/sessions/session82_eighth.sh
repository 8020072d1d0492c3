#!/usr/bin/env bash
# Session 82's eighth call (~420 s, either card): the GPU tests of the kernels the in-flight
# main loop changes (narrow token tiles, INFLIGHT_MAX_TILE_M: the plain and fused wgmma
# kernels and their public ops, the early release, the 8-token tiles) in 12 shards, then
# tools/l2_consumer_probe.py at 4096x14336 M = 16, 9216x7168 M = 16 and M = 8 (the default
# loop and the prefetched words against the in-flight loop, from L2 and from DRAM).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_eighth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points l2_consumer_probe 250 0 2 3
all_gpu_tests 12 330 tests/test_inflight_mainloop.py tests/test_early_release.py \
  tests/test_fused_tile8.py tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm.py \
  tests/test_nvfp4_gemm_swiglu_quant.py
report_warm
run_points l2_consumer_probe 100 0 2 3
echo "done after $(elapsed) s"
