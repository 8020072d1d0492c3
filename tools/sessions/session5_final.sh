#!/usr/bin/env bash
# Session 5, last device call: GPU tests of what changed (small-M staging and ring, split-K
# route), memcheck and racecheck, then (cache filled by parallel warm-up processes) the swiglu
# suite, the demo, and the nvfp4_gemm suite shape by shape until the time is up. Few files
# come back: checks.txt, bench-swiglu.log, demo.log, bench-gemm.log.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session5_final.sh
source "$(dirname "$0")/../device_common.sh"
start_final_checks
report_checks
final_suites 555
