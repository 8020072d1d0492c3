#!/usr/bin/env bash
# The wgmma decode change: large-M GPU tests (plain, stream-K, fused), then tools/decode_probe.py.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session6_decode.sh
source "$(dirname "$0")/device_common.sh"
gpu_tests 200 /tmp/logs/t-large.log tests/test_nvfp4_gemm_large_m.py &
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "large_m" &
CUTE_KERNELS_BENCH_WARM=1 timeout 150 python tools/decode_probe.py > /tmp/logs/warm-decode.log 2>&1 &
wait
for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^E  " "$f" | head -6; done
grep -A8 Traceback /tmp/logs/warm-decode.log | tail -8
timeout 100 python tools/decode_probe.py 2>&1 | tee "$OUT/decode_probe.log"
echo "done after $(elapsed) s"
