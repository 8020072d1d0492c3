#!/usr/bin/env bash
# Session 33's first call (~250 s): memcheck and racecheck on tools/sanitize_probe.py (its
# stream-K and split-K launches take session 32's fix-up, the last CTA's own piece added from
# registers), beside the stream-K / split / pieces GPU tests (the fix-up's one loop, a mend
# after session 32's last device call, is compile-tested only).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session33_first.sh
source "$(dirname "$0")/../device_common.sh"
timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1  # compiles, warm cache
sanitize memcheck 200 &
sanitize racecheck 230 &
gpu_tests 220 /tmp/logs/t-sk.log tests/test_nvfp4_gemm_large_m.py \
  tests/test_nvfp4_gemm_swiglu_quant.py -k "stream_k or split or pieces" &
wait
cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
