#!/usr/bin/env bash
# Session 30's fourth call (~150 s): tools/split_fixup_probe.py (split-K summed inside the
# launch by stream-K on tiles x splits CTAs, against the split plans' torch.sum).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_then_run split_fixup_probe 6 250
echo "done after $(elapsed) s"
