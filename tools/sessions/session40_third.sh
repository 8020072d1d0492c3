#!/usr/bin/env bash
# Session 40's third call (~300 s): tools/prefetch_depth_probe.py, the wgmma GEMM prefetching
# 128 / 256 / 384 K elements of weights into L2 before it waits for its activation pass (default: the
# stages) at issue 5's pass-bound points, all points compiled first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session40_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run prefetch_depth_probe 25 400
echo "done after $(elapsed) s"
