#!/usr/bin/env bash
# Session 44's seventh call (~90 s): tools/fused_split_groups_probe.py, the fused one-token
# row groups with K split in two (the plain kernel's grid shape) against the rule.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_seventh.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_split_groups_probe 120 0 1 2
report_warm
run_points fused_split_groups_probe 90 0 1 2
echo "done after $(elapsed) s"
