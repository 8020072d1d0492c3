#!/usr/bin/env bash
# Session 58 call 1 (~450 s, prepared in session 57): every GPU test on session 57's routes
# (its last calls ran the bf16 weights' and the 256-token stream-K tests only; the swapped
# kernel's cluster pairs, built after its last call, are untested on a GPU), memcheck /
# racecheck on those pairs, the swiglu suite's 1024x7168 / 4096x7168 (W4A16 rows with the bf16
# weights and w4a16_stream_k_plan). Then session58_second.sh (the probes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session58_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2 3
all_gpu_tests 14 360
report_warm
sanitize_script sanitize_swapped_pairs
run_suite swiglu 100 2 3
suite_lines
grep -h "W4A16 permuted" "$OUT"/bench-swiglu*.log | cut -c1-150
echo "done after $(elapsed) s"
