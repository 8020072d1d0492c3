#!/usr/bin/env bash
# Session 107 (either card, ~500 s): on an H200, session102_h200.sh (the open targets' rows);
# on an H100, every GPU test in eight shards. The last full pass was session 97's (16f9018);
# since then the kernels' files were split (SASS byte-identical on the CPU) and the
# warp-uniform switches turned on, each checked by its own tests only.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session107_either.sh [quick]
source "$(dirname "$0")/../device_common.sh"
if on_h200; then
  exec bash "$(dirname "$0")/session102_h200.sh" "$@"
fi
nvidia-smi --query-gpu=name --format=csv,noheader
all_gpu_tests 8 "${GPU_TEST_SECS:-450}"  # (a shorter budget: GPU_TEST_SECS)
