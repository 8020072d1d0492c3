#!/usr/bin/env bash
# Session 57 call 2 (~450 s): KOrder.BF16 (bf16 weights from a pass, both wgmma operands in
# shared memory): its GPU tests and sanitizers, then tools/bf16_weights_probe.py, the fused op on
# bf16 activations (W4A16) with and without it at 1024x7168 / 4096x7168, 256..4096 tokens.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session57_bf16.sh
source "$(dirname "$0")/../device_common.sh"
warm_points bf16_weights_probe 250 0 1 2 3 4 5 6 7 8 9
gpu_tests 300 /tmp/logs/t-bf16.log tests/test_bf16_weights.py tests/test_pieces_routes.py &
report_warm_and_tests
sanitize_script sanitize_bf16_weights
echo "sanitizers done after $(elapsed) s"
run_points bf16_weights_probe 250 0 1 2 3 4 5 6 7 8 9
echo "done after $(elapsed) s"
