#!/usr/bin/env bash
# The next session's first device call: verify and time what session 4 could not run.
#  * split-K in the wgmma GEMM (tests, then tools/split_probe.py),
#  * prefetch = 2 in the small-M kernels (config tests; its probe, tools/prefetch2_probe.py, went
#    with the two-step loop it measured, see notes/h200-2026-11-29.md, session 5).
# Kernel cache filled first by one warm-up process per shape. Few files under $OUT (the device
# returns a limited number).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session5_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 300 /tmp/logs/t-split.log -k split tests/test_nvfp4_gemm_large_m.py &
gpu_tests 300 /tmp/logs/t-configs.log -k every_tile_config tests/test_nvfp4_gemm.py \
  tests/test_nvfp4_gemm_swiglu_quant.py &
gpu_tests 300 /tmp/logs/t-fused.log -k "test_matches_reference or tensor_scalars or graph_capture" \
  tests/test_nvfp4_gemm_swiglu_quant.py &
for i in 0 1 2; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 300 python tools/split_probe.py > /tmp/logs/warm-split$i.log 2>&1 &
done
wait
echo "tests + warm-up done after $(( $(date +%s) - t0 )) s"
for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^E  " "$f" | head -8; done
grep -l -E "Error|Traceback" /tmp/logs/warm-*.log
timeout 120 python tools/split_probe.py 2>&1 | tee "$OUT/split_probe.log"
echo "done after $(( $(date +%s) - t0 )) s"
