#!/usr/bin/env bash
# Prepared in session 50 for the next session (~120 s): the fused op's "narrow" stream-K route
# at 32 tokens on 9216x7168 (one CTA an SM: untriggered since session 38's 22.99 / 23.30 us,
# trigger without the spread) against the trigger with the spread pass on 32-token tiles
# ("spread32"), which won 0.3-0.55 us on nvfp4_gemm's same launches in session 50:
# tools/fused_narrow_pair_probe.py point 13 (and point 12, 36864x7168 M = 32 at two CTAs an
# SM, as a control).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_fused_spread.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="13 12"
warm_points fused_narrow_pair_probe 200 $POINTS
report_warm
run_points fused_narrow_pair_probe 150 $POINTS
echo "done after $(elapsed) s"
