#!/usr/bin/env bash
# Session 84's first call (~380 s, either card): session83_first.sh (which no device ran) with
# the four-consumer form beside it. This copy of the tree (the device's) gets
# NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M = 32, so that the wgmma paths' GPU tests (the plain and
# fused kernels, their public ops, the early release, the 8-token tiles) run with the
# in-flight loop; tests/test_four_consumers.py (FOUR_CONSUMERS_MAX_TILE_M against the fp64
# reference, with and without the in-flight loop) runs with them. Then
# tools/l2_consumer_probe.py at 4096x14336 M = 16, 9216x7168 M = 16 and 4096x14336 M = 8:
# the default loop, in flight, prefetched words, two CTAs an SM, four consumer warpgroups;
# from L2 and from DRAM.
# If every test passes, set INFLIGHT_MAX_TILE_M = 32 in the tree (then session84_sanitize.sh).
# If `four` / `four_inflight` beat `inflight` from L2 and agree, time them from DRAM on an
# H200 (the 16-token launches' consumer bound) before any route takes them.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_first.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
sed -i 's/^    INFLIGHT_MAX_TILE_M = 0$/    INFLIGHT_MAX_TILE_M = 32/' \
  "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
grep -n "^    INFLIGHT_MAX_TILE_M" "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
warm_points l2_consumer_probe 250 0 2 3
all_gpu_tests 12 280 tests/test_four_consumers.py tests/test_inflight_mainloop.py \
  tests/test_early_release.py tests/test_fused_tile8.py tests/test_nvfp4_gemm_large_m.py \
  tests/test_nvfp4_gemm_swiglu_quant.py tests/test_nvfp4_gemm.py -k "not every_tile_config \
  and not small_m and not fixed_row_offsets and not three_to_eight and not paired_steps \
  and not test_matches_fp64_reference and not test_matches_reference and not one_token"
report_warm
run_points l2_consumer_probe 150 0 2 3
echo "done after $(elapsed) s"
