#!/usr/bin/env bash
# Session 32's fourth call (~220 s): the swiglu suite on 1024x7168 (issue 6's last M >= 1024
# rows against cuBLAS + silu, measured in the same run).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session32_fourth.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2
wait
grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
CUTE_KERNELS_BENCH_SHAPES=2 timeout 220 python -m cute_kernels.bench swiglu \
  --out "$OUT/bench" 2>&1 | tee "$OUT/swiglu_suite.log" | grep -vE "^\s*$" | tail -30
echo "done after $(elapsed) s"
