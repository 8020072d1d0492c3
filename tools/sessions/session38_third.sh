#!/usr/bin/env bash
# Session 38's third call (prepared in session 37, ~200 s): W4A16 small-M configs at 4 and 8
# tokens on 4096x7168 and 7168x2048, permuted words (tools/w4a16_config_probe.py: whole-K
# register-path configs against K splits that stage 8-token tiles), compiled first; read it
# beside session38_first.sh's wgmma launch at the same points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run w4a16_config_probe 4 200
echo "done after $(elapsed) s"
