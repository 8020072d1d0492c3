#!/usr/bin/env bash
# Session 84's sanitizer call (~400 s, either card), after session83_first.sh's GPU tests
# pass: memcheck and racecheck on tools/sanitize_probe.py with the in-flight main loop on
# (this copy of the tree, the device's, gets NVFP4GemmLargeM.INFLIGHT_MAX_TILE_M = 32, as
# session83_first.sh sets it): the probe's 8-, 16- and 32-token tiles (stream-K, whole tiles,
# two K groups, two CTAs an SM, the fused kernel) then take _mainloop_inflight, so its early
# stage releases are checked before the rule lands in the tree; and the probe's four-consumer
# launches (FOUR_CONSUMERS_MAX_TILE_M: the warpgroups' shared-memory sum).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session84_sanitize.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
sed -i 's/^    INFLIGHT_MAX_TILE_M = 0$/    INFLIGHT_MAX_TILE_M = 32/' \
  "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
grep -n "^    INFLIGHT_MAX_TILE_M" "$here/../../cute_kernels/nvfp4_gemm_large_m.py"
sanitize_both
wait
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"; tail -3 /tmp/logs/probe.log
echo "done after $(elapsed) s"
