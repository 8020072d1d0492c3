#!/usr/bin/env bash
# tools/swiglu_permuted_probe.py: the fused kernel's small-M configs on permuted words
# (M = 1 / 8 / 16, every swiglu suite shape) and the large-M routes of the small weights
# against the unfused pair (one warm-up process per shape, then the timed run; ~250 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session11_swiglu.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run swiglu_permuted_probe 5 300
echo "done after $(elapsed) s"
