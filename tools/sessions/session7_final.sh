#!/usr/bin/env bash
# Session 7, last device call: all GPU tests of the GEMM, fused and model layers (the stream-K
# hybrid plan, the cached scale constants), memcheck and racecheck, then (cache filled by
# parallel warm-up processes) the swiglu suite, the demo, and the nvfp4_gemm suite shape by
# shape until the time is up. Few files come back: checks.txt, bench-swiglu.log, demo.log,
# bench-gemm.log.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session7_final.sh
source "$(dirname "$0")/../device_common.sh"
start_final_checks
gpu_tests 100 /tmp/logs/t-constants.log tests/test_constants.py &
report_checks
final_suites 560
