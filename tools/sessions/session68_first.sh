#!/usr/bin/env bash
# Session 68 call 1 (~450 s, prepared in session 67): every GPU test on session 67's rules (the
# fused op's fitted tiles in steps of 16, measured with the suite in call 2; fitted tiles past
# 1024 tokens, whole alone, FITTED_MAX_M 2048, which no suite has run: only the probes'
# agreement checks at 45 points).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session68_first.sh
source "$(dirname "$0")/../device_common.sh"
all_gpu_tests 16 450
echo "done after $(elapsed) s"
