#!/usr/bin/env bash
# Session 23's second call: the staged quantization (now the default, h lines written in place)
# and the producer warps quantizing it (QUANTIZER_WARPS = 3, off): their bit test, the fused
# GPU tests in four processes, memcheck / racecheck (racecheck's first reports kept), then
# tools/fused_epilogue_probe.py (main = staged, fragment, quant3, skip; bits checked).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/session23_call2.sh   (~420 s)
source "$(dirname "$0")/device_common.sh"
export CUTE_KERNELS_PROBE_VARIANTS=main,quant3,fragment,skip
A="matches_reference or split_route or public_narrow or dependent_chain"
B="every_tile_config or one_token or large or stream"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 220 & sanitize racecheck 260 & wait) &
gpu_tests 280 /tmp/logs/t-variants.log tests/test_nvfp4_gemm_swiglu_quant.py -k variants &
gpu_tests 280 /tmp/logs/t-fusedA.log tests/test_nvfp4_gemm_swiglu_quant.py -k "($A) and not variants" &
gpu_tests 280 /tmp/logs/t-fusedB.log tests/test_nvfp4_gemm_swiglu_quant.py -k "($B) and not ($A or variants)" &
gpu_tests 280 /tmp/logs/t-fusedC.log tests/test_nvfp4_gemm_swiglu_quant.py -k "not ($A or $B or variants)" &
warm_points fused_epilogue_probe 200 0 2 3 4
wait
{ echo "tests + warm-up done after $(elapsed) s"
  for f in /tmp/logs/t-*.log; do echo "== $(basename "$f"): $(tail -1 "$f")"; grep -E "^FAILED|^ERROR|^E  " "$f" | head -8; done
  tail -1 /tmp/logs/probe.log; cat "$OUT/memcheck.txt" "$OUT/racecheck.txt"
  grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10; } 2>&1 | tee "$OUT/checks.txt"
grep -E -B3 -A14 "Race reported|Error: " "$OUT/sanitize-racecheck.log" | head -120 > "$OUT/racecheck-detail.txt"
rm -f "$OUT"/sanitize-*.log "$OUT"/memcheck.txt "$OUT"/racecheck.txt
CUTE_KERNELS_BENCH_SHAPES=0,2,3,4 timeout $(( 560 - $(elapsed) )) python tools/fused_epilogue_probe.py 2>&1 | tee "$OUT/probe.log"
echo "done after $(elapsed) s"
