#!/usr/bin/env bash
# Session 85's first call (~450 s on an H200, ~250 s on an H100): session85_quant.sh (the
# quantizer on grids that are not persistent), then session84_fifth.sh (on an H200 the
# nvfp4_gemm suites at 5120x17408 and 7168x2048 and swiglu at 1024x7168, the stale rows; on an
# H100 the W4A16 ring probe). session85_second.sh has the rest of session84_third.sh.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session85_first.sh
here="$(dirname "$0")"
bash "$here/session85_quant.sh"
bash "$here/session84_fifth.sh"
