#!/usr/bin/env bash
# Session 23's last call: the quantizer warps helped by the consumers on a CTA's last tile
# (claims of 32 items), on every 128- / 256-token launch. The variants' bit test, the fused
# GPU tests in three more processes, memcheck / racecheck, the swiglu suite's compiles; then
# tools/fused_epilogue_probe.py (main = the rule, staged, fragment; six points) and the
# swiglu suite.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session23_call4.sh   (~500 s)
source "$(dirname "$0")/device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,staged,fragment
A="matches_reference or split_route or public_narrow or dependent_chain"
B="every_tile_config or one_token or large or stream"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 220 & sanitize racecheck 260 & wait) &
gpu_tests 280 /tmp/logs/t-variants.log tests/test_nvfp4_gemm_swiglu_quant.py -k variants &
gpu_tests 280 /tmp/logs/t-fusedA.log tests/test_nvfp4_gemm_swiglu_quant.py -k "($A) and not variants" &
gpu_tests 280 /tmp/logs/t-fusedB.log tests/test_nvfp4_gemm_swiglu_quant.py -k "($B) and not ($A or variants)" &
gpu_tests 280 /tmp/logs/t-fusedC.log tests/test_nvfp4_gemm_swiglu_quant.py tests/models -k "not ($A or $B or variants)" &
warm_points fused_epilogue_probe 250 0 2 3 4 6 7
for i in 0 1 2 3 4; do
  CUTE_KERNELS_BENCH_WARM=1 CUTE_KERNELS_BENCH_SHAPES=$i timeout 250 python -m cute_kernels.bench swiglu --out /tmp/warm$i > /tmp/logs/warm-swiglu$i.log 2>&1 &
done
wait
{ echo "tests + warm-up done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -8; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
grep -E -B3 -A14 "Race reported|Error: " "$OUT/sanitize-racecheck.log" | head -120 > "$OUT/racecheck-detail.txt"
rm -f "$OUT"/sanitize-*.log "$OUT"/memcheck.txt "$OUT"/racecheck.txt
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4,6,7 timeout 150 python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/probe.log"
echo "probe done after $(elapsed) s"
timeout $(( 560 - $(elapsed) )) python -m cute_kernels.bench swiglu --out /tmp/swiglu > "$OUT/swiglu.log" 2>&1
echo "done after $(elapsed) s"
