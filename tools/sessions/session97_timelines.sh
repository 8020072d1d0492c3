#!/usr/bin/env bash
# Two stamped timelines, either card (~250 s on a cold machine; the H200 is the card that
# counts, an H100 shows the shape). Built in session 97, unrun:
# - tools/quant_timeline.py (issue 4: plain nvfp4_quantize at M = 4096, 74-78% of the H200's
#   copy, 85% asked): per point how early the CTAs start, the warps' and SMs' end times, the
#   span left idle by SMs done early and the warp slots busy;
# - tools/stream_k_timeline.py (issue 5's M <= 16 rows, 53.6-59.4%, 60% asked): the
#   16-token stream-K launch split per CTA into release, first loop, fix-up, last loop,
#   finish, for the real, stubbed and bare launches (session 80: 16.2 / 13.3 / 7.1 us).
# First the stamps' GPU tests (their bits equal the public launches', every stamp in order).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session97_timelines.sh
source "$(dirname "$0")/../device_common.sh"
timelines_warm
report_warm_and_tests
timelines_run 150
echo "done after $(elapsed) s"
