#!/usr/bin/env bash
# Session 65 call 5 (~300 s): every GPU test on the fitted token tiles.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session65_fifth.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 14 540
echo "done after $(elapsed) s"
