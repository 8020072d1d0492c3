#!/usr/bin/env bash
# Session 87 (~120 s on either card; on an H200 session87_lean.sh's suites first, ~350 s in
# all): tools/pass_boundary_probe.py at its four points: what the activation pass costs a chain
# of GEMM calls as a kernel boundary (a one-CTA stub before the GEMM) and as work (the pass's
# grid writing zeros), against the public call and the GEMM alone, both kinds of tokens.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_boundary.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if on_h200; then
  bash "$here/session87_lean.sh"
fi
warm_points pass_boundary_probe 150 0 1 2 3
report_warm
run_points pass_boundary_probe 150 0 1 2 3
echo "done after $(elapsed) s"
