#!/usr/bin/env bash
# Session 51, fourth call (~150 s): where ``decode_ahead``'s time goes (calls 2 and 3: equal
# bits, 12-18 us slower than the pass route at 1024x7168 M = 2048 / 4096). The probe's
# "nowait" (the producer does not wait for the counters: the decoders' cost to the consumers)
# and "nodecode" (the decoders only release the counters: the counters' cost).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session51_parts.sh
source "$(dirname "$0")/../device_common.sh"
warm_points decode_ahead_probe 240 0 1 3
report_warm
run_points decode_ahead_probe 200 0 1 3
echo "done after $(elapsed) s"
