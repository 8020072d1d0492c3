#!/usr/bin/env bash
# Session 88's first call: on an H200 session87_lean.sh's suites first (SUITE_SECONDS=70,
# ~200 s: the short-K fix's 7168x2048 suite rows, issue 6's fused 9216x7168 M = 1 row), then
# session88_flag.sh (~300 s); on an H100 the flag alone.
# Closed (calls 3 and 5, H100): the flag lost 0.75-1.25 us a call; its code is now
# notes/pass-flag.patch (`git apply notes/pass-flag.patch` before running this).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session88_first.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if on_h200; then
  SUITE_SECONDS=70 bash "$here/session87_lean.sh"
fi
bash "$here/session88_flag.sh"
echo "done after $(elapsed) s"
