#!/usr/bin/env bash
# Session 49, second call (~350 s): the asynchronous fix-up, now the default: its tests, the
# GEMM / fused GPU tests on its routes (stream-K, narrow, graphs), and the
# sanitizer launches (with LATE_DIRECT as well), then tools/prefetch_depth_probe.py's "sync"
# (stream_k_fixup alone) and "late" forms against the public route at every launch the fix-up
# changes (stream-K, 16..64-token tiles, one CTA an SM) and issue 5's points; then
# tools/wgk_stream_k_probe.py (issue 5's stream-K points on 64-row tiles).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session49_late.sh
source "$(dirname "$0")/../device_common.sh"
export CUTE_KERNELS_PROBE_FORMS=sync,late
POINTS="1 2 0 6 7 12 20 29 30 31 32 33 34 10"
warm_points prefetch_depth_probe 240 $POINTS
warm_points wgk_stream_k_probe 240 0 1 2 3 4
gpu_tests 280 /tmp/logs/t-async.log tests/test_async_fixup.py tests/test_nvfp4_gemm_large_m.py &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "stream_k or narrow or pieces or graph or chain or large_m_matches" &
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py \
  -k "stream_k or packed or graph or chain or 9_tokens or matches_fp64" &
report_warm_and_tests
sanitize_script sanitize_async_fixup
run_points prefetch_depth_probe 300 $POINTS
run_points wgk_stream_k_probe 120 0 1 2 3 4
echo "done after $(elapsed) s"
