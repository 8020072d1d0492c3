#!/usr/bin/env bash
# Session 5, confirmation: tools/m1_probe.py on the committed small-M kernels (cache filled
# by one warm-up process per shape first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session5_confirm.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run m1_probe 7 150
echo "done after $(elapsed) s"
