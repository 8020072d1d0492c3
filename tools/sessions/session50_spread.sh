#!/usr/bin/env bash
# Session 50, fifth call (~250 s): the spread activation pass and the PDL trigger on issue 5's
# stream-K points since the asynchronous fix-up (the rule spreads 16-token tiles only;
# session 36 measured the spread losing at 64 tokens, before the fix-up changed):
# tools/narrow_spread_probe.py's "wgmma" / "spread" / "untrig" forms.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_spread.sh
source "$(dirname "$0")/../device_common.sh"
POINTS="4 5 6 10 11 12 7 8 13"
warm_points narrow_spread_probe 200 $POINTS
report_warm
run_points narrow_spread_probe 240 $POINTS
echo "done after $(elapsed) s"
