#!/usr/bin/env bash
# Session 89: the fused one-token op's extra time (tools/fused_gap_probe.py: the public fused
# launch against the plain GEMM on its grid of 32-row blocks, against the public plain launch
# and against itself with parts of its epilogue left out; 9216x7168 M = 1), with the weights
# from DRAM, then from L2 (``PROBE_L2=1``). Either
# card (~70 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_fused_gap.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_gap_probe 240 0
report_warm
run_points fused_gap_probe 120 0
PROBE_L2=1 run_points fused_gap_probe 120 0
echo "done after $(elapsed) s"
