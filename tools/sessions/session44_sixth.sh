#!/usr/bin/env bash
# Session 44's sixth call (~120 s): tools/tiled_codes_probe.py, the one-token loop's weight
# codes addressed tile-major (NVFP4GemmSmallM.PROBE_TILED_CODES, addresses only) against the
# row-major words, at four one-token points.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session44_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_points tiled_codes_probe 150 0 1 2 3
report_warm
run_points tiled_codes_probe 120 0 1 2 3
echo "done after $(elapsed) s"
