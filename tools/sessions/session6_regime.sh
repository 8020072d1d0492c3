#!/usr/bin/env bash
# The fused op's small-M / stream-K wgmma crossover (tools/fused_regime_probe.py), cache filled
# by one warm-up process per shape. Usage: source .gpu/setup.sh; bash tools/sessions/session6_regime.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run fused_regime_probe 5 200
echo "done after $(elapsed) s"
