#!/usr/bin/env bash
# Session 82's fifth and seventh calls: tools/l2_consumer_probe.py (its consumer forms:
# the in-flight loop, several accumulators, stubbed), from L2 and from
# DRAM (an H100: every point, ~60 s; an H200: 4096x14336 and 9216x7168 at 16 tokens, then
# session 81's fifth call, the suites, ~480 s).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session82_fifth.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  warm_points l2_consumer_probe 250 0 2
  report_warm
  run_points l2_consumer_probe 100 0 2
  bash "$here/session81_fifth.sh"
  exit
fi
warm_points l2_consumer_probe 250 0 1 2 3 4
report_warm
run_points l2_consumer_probe 250 0 1 2 3 4
echo "done after $(elapsed) s"
