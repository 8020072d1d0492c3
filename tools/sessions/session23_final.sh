#!/usr/bin/env bash
# Session 23's last call, on main after the fragment-held quantization left and the quantizer
# warps became permuted-only: the fused op's GPU tests (the variants' bit test now also against
# the reference), memcheck and racecheck.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session23_final.sh   (~200 s)
source "$(dirname "$0")/../device_common.sh"
start_fused_checks
fused_checks_report
echo "done after $(elapsed) s"
