#!/usr/bin/env bash
# Session 88's second call: on an H200 session87_lean.sh's suites first (SUITE_SECONDS=70,
# ~200 s), then session88_timeline.sh (~200 s); on an H100 the timeline alone.
# Closed (calls 3 and 5, H100): the flag lost 0.75-1.25 us a call; its code is now
# notes/pass-flag.patch (`git apply notes/pass-flag.patch` before running this).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session88_second.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if on_h200; then
  SUITE_SECONDS=70 bash "$here/session87_lean.sh"
fi
bash "$here/session88_timeline.sh"
echo "done after $(elapsed) s"
