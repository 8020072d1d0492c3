#!/usr/bin/env bash
# Session 82's fourth call: on an H200 session 81's fifth call (the suites, ~480 s); on an
# H100 tools/l2_consumer_probe.py (the 16-token launch with its weights in L2: is it bound by
# its consumers there, as the H200's is from DRAM? ~200 s).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_fourth.sh
here="$(dirname "$0")"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$here/session81_fifth.sh"
  exit
fi
source "$here/../device_common.sh"
warm_points l2_consumer_probe 250 0 1 2 3 4
report_warm
run_points l2_consumer_probe 250 0 1 2 3 4
echo "done after $(elapsed) s"
