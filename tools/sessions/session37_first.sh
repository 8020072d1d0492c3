#!/usr/bin/env bash
# Session 37's first call (prepared, ~120 s): the fused op on half-group cluster pairs of
# 16-token tiles at 9..16 tokens on 4096x7168 against its small kernel
# (tools/fused_narrow_pair_probe.py, compiled in parallel first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session37_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run fused_narrow_pair_probe 3 200
echo "done after $(elapsed) s"
