#!/usr/bin/env bash
# Session 58 (~600 s, prepared in session 57): every GPU test on session 57's routes (its last
# calls ran the bf16 weights' and the 256-token stream-K tests only), the swiglu suite's
# 1024x7168 / 4096x7168 (W4A16 rows with the bf16 weights and w4a16_stream_k_plan), and
# tools/bf16_weights_probe.py points 19-24 with w4a16_stream_k_plan as the route ("fused" should
# match "fused_sk256"), then tools/stream_k_stretch_probe.py (1024x7168's stream-K stretch
# against whole / 256-token launches, both activations: lead a).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session58_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 2 3
warm_points bf16_weights_probe 250 19 20 21 22 23 24
warm_points stream_k_stretch_probe 250 0 1 2 3
all_gpu_tests 14 360
report_warm
run_suite swiglu 100 2 3
suite_lines
grep -h "W4A16 permuted" "$OUT"/bench-swiglu*.log | cut -c1-150
run_points bf16_weights_probe 150 19 20 21 22 23 24
run_points stream_k_stretch_probe 150 0 1 2 3
echo "done after $(elapsed) s"
