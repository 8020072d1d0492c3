#!/usr/bin/env bash
# Session 87's W4A16 pass call (~220 s on an H100; on an H200 ~450 s with session87_lean.sh's
# suites after it): ``reorder_k`` with sixteen-byte loads (``ReorderK.WIDE_LOADS``). The k-order
# and W4A16 GPU tests, memcheck on the copy's launches (default and spread grids, rows past M),
# then tools/reorder_wide_probe.py (wide / narrow / w4a4 at issue 5's open W4A16 points).
# Ran once (call 10, H100): the wide loads moved the chain -0.7..+1% (7168x18432 M = 64 lost
# 0.4 us), so they were taken out; the switch and the probe are notes/reorder-wide-loads.patch.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session87_reorder.sh
here="$(dirname "$0")"
source "$here/../device_common.sh"
gpu_tests 240 /tmp/logs/t-korder.log tests/test_k_order.py tests/test_permuted_fp4.py &
warm_points reorder_wide_probe 200 0 1 2 3 4 5 6
timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 python -c "
import torch
from cute_kernels.nvfp4_dequant import bf16_activations
from cute_kernels.k_order import KOrder
for m, k, rows in [(1, 64, None), (7, 576, 64), (129, 7168, 256), (256, 2048, None)]:
    x = torch.randn(m, k, device='cuda', dtype=torch.bfloat16)
    for spread in (False, True):
        bf16_activations(x, None, KOrder.PERMUTED, rows, spread)
torch.cuda.synchronize(); print('probe ran')
" > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY|probe ran' "$OUT/memcheck.log" | tr '\n' ' ')"
report_warm_and_tests
run_points reorder_wide_probe 150 0 1 2 3 4 5 6
echo "probe done after $(elapsed) s"
if on_h200; then
  bash "$here/session87_lean.sh"
fi
echo "done after $(elapsed) s"
