#!/usr/bin/env bash
# Session 89: the balanced ring (steps in flight through cp.async, ``ring_slots``) with the
# weights read from L2 (``PROBE_L2=1``), where an H100 stands in for the H200's faster memory:
# tools/balanced_ring_probe.py points 0 and 1 (9216x7168 M = 1, NVFP4 and bf16 tokens). From
# DRAM the H100 lost 1.1 us with it (session 81); from L2 (session 89 call 8) the one-token
# GEMM takes 11.0 us, near the H200's 11.94 from DRAM. Either card (~60 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session89_ring_l2.sh
source "$(dirname "$0")/../device_common.sh"
export PROBE_L2=1
warm_points balanced_ring_probe 240 0 1
report_warm
run_points balanced_ring_probe 120 0 1
echo "done after $(elapsed) s"
