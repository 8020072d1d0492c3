#!/usr/bin/env bash
# Session 90: the out_scale table on the fused register / K-split launches of at most
# EPILOGUE_TABLE_MAX_CTAS CTAs (the new default) - its GPU tests, the fused small-M GPU tests,
# memcheck / racecheck (tools/sanitize_fused_table.py), and tools/padding_words_probe.py
# points 0..6 ("divide": no table, "table": on every launch). Either card (~400 s on an H100).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session90_table.sh
source "$(dirname "$0")/../device_common.sh"
warm_points padding_words_probe 200 0 1 2 3 4 5 6
wait
all_gpu_tests 8 300 tests/test_fused_epilogue_tail.py tests/test_nvfp4_gemm_swiglu_quant.py
sanitize_script sanitize_fused_table 150
run_points padding_words_probe 150 0 1 2 3 4 5 6
echo "done after $(elapsed) s"
