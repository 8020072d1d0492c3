#!/usr/bin/env bash
# Session 99 on the last of a budget (~150 s on a cold machine), either card: the late pieces'
# GPU tests beside the warm-up, then tools/late_pieces_probe.py at 9216x7168 M = 16 alone.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session99_tiny.sh
source "$(dirname "$0")/../device_common.sh"
nvidia-smi --query-gpu=name --format=csv,noheader
warm_points late_pieces_probe 120 0
gpu_tests 120 /tmp/logs/t-late.log tests/test_async_fixup.py -k late_pieces_same_bits &
report_warm_and_tests
run_points late_pieces_probe 60 0
echo "done after $(elapsed) s"
