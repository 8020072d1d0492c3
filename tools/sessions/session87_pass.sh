#!/usr/bin/env bash
# Session 87's last call (~100 s on an H100; ~330 s on an H200, session87_lean.sh's suites
# first): tools/pass_cost_probe.py at 7168x2048 M = 256 and M = 64 with W4A16 split into its
# copy ("w4a16_alone": the GEMM without ``reorder_k``) and its operand's bits
# ("w4a16_fp4_values": bf16 tokens holding the NVFP4 tokens' values). W4A16 pays 0.4 us over
# NVFP4 tokens at M = 256 on either card (0.87x cuBLAS on the H200, 0.9x asked); M = 256 is
# compute-bound, so the H100 (same SMs and clocks) answers the split as well.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_pass.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if on_h200; then
  bash "$here/session87_lean.sh"
fi
warm_points pass_cost_probe 150 9 4
report_warm
run_points pass_cost_probe 100 9 4
echo "done after $(elapsed) s"
