#!/usr/bin/env bash
# Session 39's first call (prepared in session 38, ~200 s): what the activations' pass costs
# nvfp4_gemm's wgmma routes in a chain of calls at issue 5's near misses
# (tools/pass_cost_probe.py: public against the GEMM alone, and W4A16, nine points, compiled
# first). About 1 us there would make decoding the NVFP4 activations inside the wgmma kernel
# the next build (notes/nvfp4-gemm-next.md, session 38's item).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session39_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run pass_cost_probe 9 200
echo "done after $(elapsed) s"
