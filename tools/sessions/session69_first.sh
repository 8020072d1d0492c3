#!/usr/bin/env bash
# Session 69 call 1 (~470 s, prepared in session 68): every GPU test on session 68's rules
# (fitted tiles to 4096 tokens, the hybrid on fitted widths past 1024, the fused op's fitted
# tiles past 2048), which no suite has run: only the probes' agreement checks cover them.
# New: the hybrid's public GPU point in tests/test_fitted_tiles.py (6144x4096 M = 2289).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_first.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 16 450
echo "done after $(elapsed) s"
