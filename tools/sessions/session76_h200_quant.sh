#!/usr/bin/env bash
# Session 76, issue 4 on an H200 in ~300 s (after session76_check.sh ran the lean launches'
# tests and sanitizers on another card): tools/quant_bw_probe.py at plain M = 4096 K = 5120 /
# 7168 and fused M = 4096 I = 5120 / 7168, each default variant beside its lean form (outputs
# compared with the old kernel's), then the quant suite on lean launches (quant-lean.out; see
# session75_quant.sh for what to do with it).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session76_h200_quant.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpl,cmp8v2tp,cmp8v2tpl
warm_points quant_bw_probe 200 0 1 8 9
report_warm
CUTE_KERNELS_BENCH_SHAPES=0,1,8,9 timeout 120 python tools/quant_bw_probe.py 2>&1 \
  | tee "$OUT/quant_bw_probe.log"
timeout 200 python -c "import sys; import cute_kernels.nvfp4_quant as q; \
q.LEAN_LAUNCH = True; from cute_kernels.bench.__main__ import main; \
sys.exit(main(['quant', '--out', '/tmp/quant-lean']))" > "$OUT/quant-lean.out" 2>&1
echo "quant suite (lean) exit $? at $(elapsed) s"
grep -E "M=4096|M=16384" "$OUT/quant-lean.out" | cut -c1-175
echo "done after $(elapsed) s"
