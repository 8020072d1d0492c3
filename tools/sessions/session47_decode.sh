#!/usr/bin/env bash
# Session 47's first call (prepared in session 46, ~300 s): the activations decoded inside the
# wgmma kernels (``act_decode``, built in session 46 without device time; notes/nvfp4-gemm-next.md
# item 000000000000000000000000 a). Issue 6's 1024x7168 at M >= 1024 trails cuBLAS + silu by
# the activations' decode pass alone (call 7: the fused kernel 76.2 / 281.9 us at M = 4096 /
# 16384 against cuBLAS's bare GEMM 76.0 / 302.8; the pass 21.0 / 77.0). First the GPU tests
# (tests/test_act_decode.py: the same bits as on the pass) and memcheck + racecheck on
# tools/sanitize_probe.py (its act_decode launches at the end), then
# tools/fused_large_m_probe.py with CUTE_KERNELS_PROBE_DECODE=1 at 1024x7168 M = 1024 / 4096
# / 16384 and 4096x7168 M = 1024 (indices 4, 9, 10, 6): "decode" (no pass) against "whole q0"
# (the same launch on the pass's activations, pass not timed) and "route" (pass + kernel);
# at M = 1024 also "decode pieces" (the route's split-K launch) against "pieces128x2".
# The decode warps are warps 1..3 of the producer warpgroup at 40 registers, ~200
# instructions a row of 64 (SASS, CPU): ~600 a thread a 256-token stage, against ~1200 cycles
# of wgmma a stage at M = 4096; if they cannot keep up, "decode" loses to "whole q0".
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session47_decode.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-decode.log tests/test_act_decode.py &
sanitize_both
export CUTE_KERNELS_PROBE_PERMUTED=1 CUTE_KERNELS_PROBE_DECODE=1
POINTS="4 9 10 6"
warm_points fused_large_m_probe 250 $POINTS
report_warm
test_summary
tail -2 /tmp/logs/probe.log
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt" 2>/dev/null | grep -E "SUMMARY|exit" | head
CUTE_KERNELS_BENCH_SHAPES=$(echo $POINTS | tr ' ' ,) timeout 240 \
  python tools/fused_large_m_probe.py 2>&1 | tee "$OUT/fused_large_m_probe.log"
echo "done after $(elapsed) s"
