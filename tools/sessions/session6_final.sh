#!/usr/bin/env bash
# Session 6, last device call: all GPU tests of the GEMM, fused and model layers (stream-K,
# small-M split defaults), memcheck and racecheck, then (cache filled by parallel warm-up
# processes) tools/concurrency_probe.py, the swiglu suite, the demo, and the nvfp4_gemm suite
# shape by shape until the time is up. Few files come back: checks.txt, concurrency.log,
# bench-swiglu.log, demo.log, bench-gemm.log.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session6_final.sh
source "$(dirname "$0")/../device_common.sh"
start_final_checks
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python tools/concurrency_probe.py > /tmp/logs/warm-conc.log 2>&1 &
report_checks
timeout 60 python tools/concurrency_probe.py > "$OUT/concurrency.log" 2>&1; cat "$OUT/concurrency.log"
final_suites 555
