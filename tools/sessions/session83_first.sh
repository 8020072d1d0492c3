#!/usr/bin/env bash
# Session 83's first call (~330 s, either card): session 82's eighth call, which the device's
# withdrawal left unrun, with the in-flight main loop on. This copy of the tree (the device's)
# gets NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M = 32, so that the wgmma paths' GPU tests (the plain
# and fused kernels, their public ops, the early release, the 8-token tiles) run with it; then
# tools/l2_consumer_probe.py at 4096x14336 M = 16 and 9216x7168 M = 16 (the default loop, in
# flight, in flight with the prefetched words; from L2 and from DRAM).
# If every test passes, set INFLIGHT_MAX_TILE_M = 32 in the tree; if `prefetch` beats
# `inflight` from L2 with the same bits, route PREFETCH_WORDS on the same tiles.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session83_first.sh
here="$(dirname "$0")"
sed -i 's/^    INFLIGHT_MAX_TILE_M = 0$/    INFLIGHT_MAX_TILE_M = 32/' \
  "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
grep -n "^    INFLIGHT_MAX_TILE_M" "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
bash "$here/session82_eighth.sh"
