#!/usr/bin/env bash
# Session 38's third call (prepared in session 37, ~480 s): W4A16 small-M configs at 4 and 8
# tokens on 4096x7168 and 7168x2048, permuted words (tools/w4a16_config_probe.py: whole-K
# register-path configs against K splits that stage 8-token tiles), and issue 6's 1024x7168
# at M >= 1024 with the GEMM's roles swapped (tools/swap_roles_probe.py: the activations
# decoded in the wgmma kernel, no pass); the fused op's stream-K ("narrow") route with the PDL
# trigger as nvfp4_gemm takes it (tools/fused_narrow_pair_probe.py points 10..13); then the
# swiglu suite on 4096x7168 (shape 3: the fused op's 9..16-token pairs in the suite); all
# compiled first.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session38_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points w4a16_config_probe 200 0 1 2 3
warm_points swap_roles_probe 200 0 1 2 3 4
warm_points fused_narrow_pair_probe 200 10 11 12 13
warm_suite swiglu 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
timeout 100 python tools/w4a16_config_probe.py 2>&1 | tee "$OUT/w4a16_config_probe.log"
timeout 120 python tools/swap_roles_probe.py 2>&1 | tee "$OUT/swap_roles_probe.log"
CUTE_KERNELS_BENCH_SHAPES=10,11,12,13 timeout 80 python tools/fused_narrow_pair_probe.py 2>&1 \
  | tee "$OUT/fused_narrow_pair_probe.log"
CUTE_KERNELS_BENCH_SHAPES=3 timeout 120 python -m cute_kernels.bench swiglu --out "$OUT/swiglu3" \
  > "$OUT/bench-swiglu3.log" 2>&1
echo "swiglu shape 3 exit $? at $(elapsed) s"
grep -h "permuted M=" "$OUT/bench-swiglu3.log" | cut -c1-180
echo "done after $(elapsed) s"
