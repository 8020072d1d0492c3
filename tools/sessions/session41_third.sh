#!/usr/bin/env bash
# Session 41's third call (prepared in session 40, ~350 s): the wgmma kernels loading their
# first 2 / 4 / 8 weight k-tiles into the stages before the PDL wait
# (``NVFP4GemmLargeM.WEIGHTS_BEFORE_WAIT``, compile-tested only) against the public route's
# 256 K elements prefetched into L2, at the 25 points of tools/prefetch_depth_probe.py. The
# warm-up runs each form once and checks its outputs against the public route's (a wrong
# barrier count would hang it: 240 s cap).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session41_third.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=w2,w4,w8
# (session 41) the fused tests of large_m_route's launches, whose bit check now skips the
# public function's half-group route (it failed one run in four at M = 129, bf16)
gpu_tests 240 /tmp/logs/t-routes.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "test_large_m_matches_reference or test_small_weight_mid_m_routes" &
warm_points prefetch_depth_probe 240 $(seq 0 24)
wait
test_summary | tee "$OUT/checks.txt"
echo "warm-up done after $(elapsed) s"; grep -h -B2 -A8 "Traceback\|DIFFERS" /tmp/logs/warm-*.log | tail -20
timeout 200 python tools/prefetch_depth_probe.py 2>&1 | tee "$OUT/prefetch_depth_probe.log"
echo "done after $(elapsed) s"
