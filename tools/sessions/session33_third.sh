#!/usr/bin/env bash
# Session 33's third call (~250 s): the public route on wg_k_split (its GPU tests, the public
# GEMM's tests), and tools/wg_k_split_regime_probe.py (the small-M kernel against the 64-row
# tiles at 9..32 tokens on 7168x2048 and 4096x7168).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session33_third.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_wg_k_split.py tests/test_nvfp4_gemm.py
timeout 200 python tools/wg_k_split_regime_probe.py 2>&1 | tee "$OUT/regime.log"
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
