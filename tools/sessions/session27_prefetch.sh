#!/usr/bin/env bash
# Session 27, call 2 (~200 s): tools/packed_prefetch_probe.py, the fused op's register prefetch
# on packed words at 2..16 tokens on the five swiglu shapes (rule config against the prefetch
# toggled).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session27_prefetch.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run packed_prefetch_probe 5 200
echo "done after $(elapsed) s"
