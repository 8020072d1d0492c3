#!/usr/bin/env bash
# Session 10: permute_k without an index tensor (the models' M = 64 steps on permuted words
# could not be captured): the permuted GPU tests (a W4A16 large-M chain in a graph among
# them), then the demo on permuted words.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session10_fix.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-perm.log tests/test_permuted_fp4.py tests/models &
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python -m models.demo > /tmp/logs/warm-demo.log 2>&1 &
wait
for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR" "$f" | head -8; done
timeout 90 python -m models.demo 2>&1 | tee "$OUT/demo.log" | grep -E "M=(1|8|64) "
echo "done after $(elapsed) s"
