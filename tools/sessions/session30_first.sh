#!/usr/bin/env bash
# Prepared in session 29 (~300 s, nothing else needed): two probes of the fused op where the
# plain GEMM moved in session 29, and one GPU test.
# 1. tools/fused_w4a16_regime_probe.py: W4A16 at 5..16 tokens, the fused small kernel (public)
#    against the fused wgmma kernel on the 16-token launch and the pair, packed and permuted.
#    If "wgmma" wins, give swiglu_small_m_regime the plain GEMM's W4A16 rule (from 9 tokens,
#    from 4 on weights over 32 Mi values: nvfp4_gemm.small_m_regime) where it measured so.
# 2. tools/fused_route_probe.py on packed bytes at 129..256 tokens (CUTE_KERNELS_PROBE_PACKED):
#    if sk256 beats the route on packed bytes where the route has 128-token tiles, give the
#    fused op a packed rule like large_m_plans.packed_plan.
# 3. The GPU test of W4A16 on the wgmma route at 4 tokens (session 29's last rule, after its
#    device time ran out; 5 and 8 tokens passed).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_first.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 150 /tmp/logs/t-order.log tests/test_k_order.py -k "w4a16" &
warm_points fused_w4a16_regime_probe 200 $(seq 0 7)
(export CUTE_KERNELS_PROBE_PACKED=1; warm_points fused_route_probe 200 0 4 10 16 17 18 19; wait) &
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -10
test_summary
timeout 200 python tools/fused_w4a16_regime_probe.py 2>&1 | tee "$OUT/fused_w4a16.log"
CUTE_KERNELS_PROBE_PACKED=1 CUTE_KERNELS_BENCH_SHAPES=0,4,10,16,17,18,19 timeout 200 \
  python tools/fused_route_probe.py 2>&1 | tee "$OUT/fused_route_packed.log"
echo "done after $(elapsed) s"
