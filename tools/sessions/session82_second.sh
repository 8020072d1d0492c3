#!/usr/bin/env bash
# Session 82's second call: on an H200 session 81's fifth call (the suites, ~480 s), on an
# H100 the ncu profile of the 16-token launch (session82_ncu.sh, ~150 s): one start serves
# whichever card comes.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_second.sh
here="$(dirname "$0")"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$here/session81_fifth.sh"
else
  bash "$here/session82_ncu.sh"
fi
