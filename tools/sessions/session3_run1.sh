#!/usr/bin/env bash
# Session 3, device call 1: GPU tests, sanitizer on every kernel, ncu of the bandwidth kernels.
set -uo pipefail
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem --format=csv,noheader
timeout 330 python -m pytest -m gpu -q tests/layouts/test_layouts_experts.py tests/layouts/test_layouts_gate_up.py tests/layouts/test_layouts_scale_factor.py tests/models/test_deepseek_mlp.py tests/models/test_lm_head.py tests/models/test_qwen3_8_mlp.py tests/test_bench_copy.py tests/test_gate_up_weight.py tests/test_gdn_split.py tests/test_gemv.py tests/test_jit_cache.py tests/test_nvfp4_dequant.py tests/test_nvfp4_gemm.py tests/test_nvfp4_quant.py tests/test_reference.py -p no:cacheprovider 2>&1 | tail -30 > "$OUT/gpu-tests.log"
tail -12 "$OUT/gpu-tests.log"
for tool in memcheck racecheck; do
  timeout 100 compute-sanitizer --tool $tool --report-api-errors no --error-exitcode 9 python tools/sanitize_probe.py > "$OUT/sanitize-$tool.log" 2>&1
  echo "compute-sanitizer $tool: exit $? ($(grep -c 'ERROR SUMMARY: 0' "$OUT/sanitize-$tool.log") clean) $(grep 'ERROR SUMMARY' "$OUT/sanitize-$tool.log" | tail -1)"
done
timeout 120 ncu --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats -k regex:kernel python tools/profile_probe.py all > "$OUT/ncu.txt" 2>&1
grep -E "^  [a-z_A-Z]|Duration|Memory Throughput|DRAM Throughput|Compute \(SM\)|Achieved Occupancy|Registers Per|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Theoretical Occ" "$OUT/ncu.txt" | head -90
