#!/usr/bin/env bash
# Session 51, last call (~250 s): every GPU test on main after the narrow rule change
# (``narrow_pdl_plan``), 12 shards side by side (``all_gpu_tests``).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_final.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 12 380
echo "done after $(elapsed) s"
