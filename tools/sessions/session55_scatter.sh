#!/usr/bin/env bash
# Session 55 (~420 s): the scattered K pieces (NVFP4GemmLargeM.SCATTER_PIECES): their GPU
# tests and the split-K tests they now run under, memcheck / racecheck on the sanitize probe
# (scattered launches added), tools/pieces_fixup_probe.py (scattered against stream_k_fixup,
# 1024x7168 M = 256 / 512 / 1024, 4096x7168 M = 128 / 256), the swiglu suite's 1024x7168 and
# 4096x7168 shapes.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session55_scatter.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pieces_fixup_probe 300 0 1 2 3 4
warm_suite swiglu 2 3
sanitize_both
gpu_tests 300 /tmp/logs/t-scatter.log tests/test_scatter_pieces.py &
gpu_tests 300 /tmp/logs/t-splits.log tests/test_nvfp4_gemm_large_m.py tests/test_k_order.py \
  tests/test_async_fixup.py -k "split or pieces or pairs or same_bits" &
gpu_tests 300 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py tests/test_nvfp4_gemm.py \
  -k "pieces or split or route" &
report_warm_and_tests
cat "$OUT"/memcheck.txt "$OUT"/racecheck.txt 2>/dev/null
run_points pieces_fixup_probe 250 0 1 2 3 4
run_suite swiglu 250 2 3
suite_lines
echo "done after $(elapsed) s"
