#!/usr/bin/env bash
# Session 30's sixth call (~300 s): tools/fused_split_pdl_probe.py (the fused op against the
# pair where in-launch split-K sped the pair up), and the GEMM GPU tests the fifth call's
# 280 s did not finish (now in two processes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_sixth.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 330 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py &
gpu_tests 330 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
warm_points fused_split_pdl_probe 200 $(seq 0 7)
wait
test_summary
echo "tests and warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
timeout 200 python tools/fused_split_pdl_probe.py 2>&1 | tee "$OUT/fused_split_pdl.log"
echo "done after $(elapsed) s"
