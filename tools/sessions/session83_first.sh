#!/usr/bin/env bash
# Session 83's first call (~330 s, either card): session 82's eighth call, which the device's
# withdrawal left unrun. The GPU tests of the wgmma paths with the in-flight main loop
# (tests/test_inflight_mainloop.py sets NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M itself; the other
# files test the default, so run them again with the rule on: CUTE_KERNELS_INFLIGHT=1 is not a
# thing, so first set INFLIGHT_MAX_TILE_M = 32 in the tree, then run this), then
# tools/l2_consumer_probe.py at 4096x14336 M = 16 and 9216x7168 M = 16 (the default loop, in
# flight, in flight with the prefetched words; from L2 and from DRAM).
# If every test passes, keep INFLIGHT_MAX_TILE_M = 32 (commit); if `prefetch` beats
# `inflight` from L2 with the same bits, route PREFETCH_WORDS on the same tiles.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session83_first.sh
bash "$(dirname "$0")/session82_eighth.sh"
