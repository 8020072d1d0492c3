#!/usr/bin/env bash
# Session 50, third call (~250 s): every GPU test on main since session 49 turned the
# asynchronous stream-K fix-up on by default (session 49 ran its own tests and part of the
# wgmma files before its 280 s limits), in 12 shards side by side (``all_gpu_tests``).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session50_tests.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 12 530
echo "done after $(elapsed) s"
