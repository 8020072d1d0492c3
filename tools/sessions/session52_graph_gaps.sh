#!/usr/bin/env bash
# Prepared in session 51 (~120 s), to run with notes/decode-ahead.patch applied (a branch:
# `git apply notes/decode-ahead.patch`): ``tools/decode_ahead_graph_gaps.py``, eight
# decode-ahead calls in one graph with a timeline each (4096x7168 and 1024x7168 at M = 4096):
# whether the graph-replay loss against the pass route (11 us at 4096x7168, where the
# decoders keep ahead) is in the gaps between launches or inside them. The decode-ahead tests
# first (the timeline changed the kernel's signature).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session52_graph_gaps.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 240 /tmp/logs/t-da.log tests/test_decode_ahead.py &
timeout 300 python tools/decode_ahead_graph_gaps.py 2>&1 | tee "$OUT/graph_gaps.log"
report_warm_and_tests
echo "done after $(elapsed) s"
