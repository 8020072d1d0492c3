#!/usr/bin/env bash
# Session 69 call 2 (~330 s, prepared in session 68): tools/fused_gaps_probe.py points 0..10:
# issue 6's open points past 256 tokens (9216x7168 M = 600 against the pair; 1024x7168 M = 600
# NVFP4 and bf16 activations, 4096x7168 M = 1100 and 1024x7168 M = 1100 / 2100 bf16 against
# cuBLAS + silu), then the fused kernel's hybrid where the pair's GEMM takes it (6..10): the
# fused op's route against forced launches, the pair and cuBLAS + silu. Where "hy240" wins and
# beats the pair, FUSED_FITTED_HYBRID = True (tests/test_fitted_tiles.py's hybrid cases first).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session69_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_gaps_probe 150 $(seq 0 10)
report_warm
run_points fused_gaps_probe 260 $(seq -s, 0 10)
echo "done after $(elapsed) s"
