#!/usr/bin/env bash
# Session 42's third call (~400 s): row groups in the small-M kernel (warps on row tiles of
# their own; the fused kernel's up and gate tiles at one tile a warp). The GPU tests of the new
# configs against the fp64 reference and compute-sanitizer on them, then
# tools/row_groups_probe.py at issue 6's one-token points and 9216x7168 M = 4 / 8.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session42_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points row_groups_probe 250 0 1 2 3 4
plain=tests/test_nvfp4_gemm.py
fused=tests/test_nvfp4_gemm_swiglu_quant.py
ids_plain=() ids_fused=()
for m in 1 2 29; do
  for c in 20 21 22 23; do ids_plain+=("$plain::test_every_tile_config_agrees[$m-config$c]"); done
  ids_plain+=("$plain::test_tile_configs_with_fixed_row_offsets[$m-config8]")
done
for m in 1 29 129 200; do
  for c in 15 16 17 18; do ids_fused+=("$fused::test_every_tile_config_agrees[$m-config$c]"); done
done
gpu_tests 300 /tmp/logs/t-plain.log "${ids_plain[@]}" &
gpu_tests 300 /tmp/logs/t-fused.log "${ids_fused[@]}" &
report_warm_and_tests
timeout 200 python tools/row_groups_probe.py 2>&1 | tee "$OUT/row_groups_probe.log"
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 \
    python tools/sanitize_row_groups.py > "$OUT/$tool.log" 2>&1 &
done
wait
for tool in memcheck racecheck; do
  echo "$tool: $(grep -E "SUMMARY|probe ran" "$OUT/$tool.log" | tr '\n' ' ')"
done
echo "done after $(elapsed) s"
