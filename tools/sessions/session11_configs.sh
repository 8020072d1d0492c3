#!/usr/bin/env bash
# tools/permuted_config_probe.py: small-M configs on permuted words, M = 1..16, every suite
# shape (one warm-up process per shape, then the timed run; ~250 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session11_configs.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run permuted_config_probe 7 280
echo "done after $(elapsed) s"
