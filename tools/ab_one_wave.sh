#!/usr/bin/env bash
# Branch one-wave-pdl against main: PDL with a CTA cap for one wave of staged CTAs (M <= 2) and
# the scale table for every staged config with the register prefetch, each alone and together.
# Packages: ab_main/ (main), ab_pdl/ (the tree with STAGED_SCALE_TABLE = False), ab_table/ (the
# tree with PDL_ONE_WAVE = False), the tree. Staged-path GPU tests, memcheck + racecheck, then
# tools/loop_ab_probe.py at M = 1 / 2 twice (outputs compared bit for bit), then the demo.
# Before the call, on the CPU: mkdir -p ab_main && git archive main cute_kernels layouts |
#   tar -x -C ab_main
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_one_wave.sh   (~500 s)
source "$(dirname "$0")/device_common.sh"
[ -d ab_main/cute_kernels ] || { echo "ab_main/cute_kernels missing"; exit 2; }
variant() {  # variant DIR FLAG: the tree's package with FLAG = False
  rm -rf "$1" && mkdir -p "$1" && cp -r cute_kernels layouts "$1"/
  sed -i "s/^    $2 = True/    $2 = False/" "$1/cute_kernels/nvfp4_gemm_small_m.py"
  grep -q "^    $2 = False" "$1/cute_kernels/nvfp4_gemm_small_m.py" || { echo "$2 not found"; exit 2; }
}
variant ab_pdl STAGED_SCALE_TABLE
variant ab_table PDL_ONE_WAVE
export LOOP_POINTS=staged LOOP_MS=1,2
gpu_tests 280 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "every_tile or paired or split or chain or graph or every_scale_byte" &
gpu_tests 280 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not large and not stream and not split_route and not torch_compile" &
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
ab_warm 270 ab_main ab_pdl ab_table .
python -m models.demo > /tmp/logs/demo-warm.log 2>&1 &
ab_checks
cat "$OUT/racecheck.txt" 2>/dev/null
ab_rounds 70 2 ab_main ab_pdl ab_table .
timeout $(( 590 - $(elapsed) )) python -m models.demo > "$OUT/demo.log" 2>&1
echo "demo exit $? at $(elapsed) s"; grep -E "DeepSeek|Qwen" "$OUT/demo.log"
