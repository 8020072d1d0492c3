#!/usr/bin/env bash
# Session 82's eighth call (~330 s, either card): the GPU tests of the kernels the in-flight
# main loop changes (narrow token tiles, INFLIGHT_MAX_TILE_M: the plain and fused wgmma
# kernels and their public ops, the early release, the 8-token tiles; 297 of them, not the
# small kernel's) in 12 shards, then
# tools/l2_consumer_probe.py at 4096x14336 M = 16 and 9216x7168 M = 16 (the default
# loop and the prefetched words against the in-flight loop, from L2 and from DRAM).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_eighth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points l2_consumer_probe 250 0 2
all_gpu_tests 12 250 tests/test_inflight_mainloop.py tests/test_early_release.py \
  tests/test_fused_tile8.py tests/test_nvfp4_gemm_large_m.py tests/test_nvfp4_gemm_swiglu_quant.py \
  tests/test_nvfp4_gemm.py -k "not every_tile_config and not small_m and not fixed_row_offsets \
  and not three_to_eight and not paired_steps and not test_matches_fp64_reference \
  and not test_matches_reference and not one_token"
report_warm
run_points l2_consumer_probe 120 0 2
echo "done after $(elapsed) s"
