#!/usr/bin/env bash
# Prepared in session 30 (~520 s, nothing else needed): what session 30's device time did not
# reach. In the background: memcheck and racecheck on tools/sanitize_probe.py (a fused launch
# on split-K pieces added), the fused op's public "pieces" route against the reference and its
# launch, the models, the whole large-M file (two processes), and the warm-ups; then
# tools/split_fixup_probe.py where the plan does not split (points 6..13, the fused op at
# 12 and 13: does large_m_plan's model, still charging the torch.sum, reject pieces that now
# win? bigger token tiles in pieces decode each weight tile fewer times), and the swiglu suite
# on 1024x7168 and 4096x7168 (issue 6's points that the pieces route moved).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session31_first.sh
source "$(dirname "$0")/../device_common.sh"
(timeout 150 python tools/sanitize_probe.py > /tmp/logs/probe.log 2>&1
 sanitize memcheck 200 & sanitize racecheck 230 & wait) &
gpu_tests 330 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "large_m_matches_reference or pieces or split_route or graph or tensor_scalars" &
gpu_tests 330 /tmp/logs/t-models.log tests/models &
gpu_tests 330 /tmp/logs/t-large1.log tests/test_nvfp4_gemm_large_m.py -k "split or stream_k" &
gpu_tests 330 /tmp/logs/t-large2.log tests/test_nvfp4_gemm_large_m.py \
  -k "not split and not stream_k" &
warm_points split_fixup_probe 250 $(seq 6 13)
warm_suite swiglu 2 3
report_checks
cat "$OUT/checks.txt"
CUTE_KERNELS_BENCH_SHAPES=$(seq -s, 6 13) timeout 180 python tools/split_fixup_probe.py 2>&1 \
  | tee "$OUT/split_fixup_probe.log"
CUTE_KERNELS_BENCH_SHAPES=2,3 timeout 200 python -m cute_kernels.bench swiglu \
  --out "$OUT/bench" 2>&1 | tee "$OUT/swiglu_suite.log" | grep -vE "^\s*$" | tail -22
echo "done after $(elapsed) s"
