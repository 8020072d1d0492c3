#!/usr/bin/env bash
# Session 53 (~300 s): tools/swapped_roles_probe.py, the NVFP4 activations as the register
# operand and the weights through the pass (nvfp4_gemm(w, w_sf, a, a_sf)), against the public
# routes and cuBLAS at the fused shapes' weights where tokens outnumber weight rows.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session53_swap.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="0 1 2 3 4 5 6"
warm_points swapped_roles_probe 300 $POINTS
report_warm
run_points swapped_roles_probe 280 $POINTS
echo "done after $(elapsed) s"
