#!/usr/bin/env bash
# Session 88's third call (~470 s either card). On an H200: session87_lean.sh 6 2 3 5 (the
# short-K fix's 7168x2048 suite, issue 6's fused 9216x7168 M = 1 row, and the 36864x7168,
# 34816x5120 and 4096x7168 suites, whose H200 rows are sessions 46-57's). On an H100: every
# GPU test (1571), 12 shards side by side, none run in full since session 86's changes.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session88_third.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
if on_h200; then
  bash "$here/session87_lean.sh" 6 2 3 5
else
  all_gpu_tests 12 440
fi
echo "done after $(elapsed) s"
