#!/usr/bin/env bash
# Session 53 (~450 s): every GPU test on main (12 shards side by side; the in-place table
# default had run only the in-place tests after it), then tools/w4a16_in_place_probe.py at the
# in-place rule's bounds (points 18-23: 512 tokens, and 9216 / 5120 rows at 4096 tokens).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session53_first.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="18 19 20 21 22 23"
warm_points w4a16_in_place_probe 300 $POINTS
all_gpu_tests 12 300
report_warm
run_points w4a16_in_place_probe 300 $POINTS
echo "done after $(elapsed) s"
