#!/usr/bin/env bash
# Session 102 (an H200 only: on an H100 it stops at once; ~400 s). session101_either.sh's H200
# work, most valuable first, so a machine taken back mid-run still leaves the targets' rows:
# - the quant suite (issue 4's two open rows, M = 4096 K = 5120 / 7168; the H200's last rows
#   are session 26's, before the claims and every change since);
# - the near rows (the 9216x7168 M = 1 row with the row-group route, then sessions 86-88's
#   near misses), the open targets and what moved;
# - the quant probe: claimed defaults (cmp6tpq4 / cmp8v2tpq4, and 7 / 8 an SM) against the
#   unclaimed forms at plain M = 4096 K = 5120 / 7168 and fused M = 4096 I = 5120.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session102_h200.sh [quick]
# ("quick", ~200 s, for a short budget: the quant suite and the 9216x7168 M = 1 row only)
source "$(dirname "$0")/../device_common.sh"
only_on_h200
quick=${1:-}
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpq4,cmp8v2tp,cmp8v2tpq4,cmp7tp,cmp7tpq4,cmp8tp,cmp8tpq4
CUTE_KERNELS_BENCH_WARM=1 timeout 200 python -m cute_kernels.bench quant --out /tmp/warmq \
  > /tmp/logs/warm-quant.log 2>&1 &
warm_at_ms 1 nvfp4_gemm 4
[ -z "$quick" ] && near_miss_warm && warm_points quant_bw_probe 150 0 1 8
report_warm
timeout 150 python -m cute_kernels.bench quant --out "$OUT/quant" > "$OUT/bench-quant.log" 2>&1
echo "quant suite rc=$? after $(elapsed) s"; grep -E "M=4096|4096 " "$OUT/bench-quant.log" | head -12
if [ -n "$quick" ]; then
  CUTE_KERNELS_BENCH_MS=1 run_suite nvfp4_gemm 60 4
  suite_lines "1"
  python -m cute_kernels.bench.targets "$OUT" --open
  exit 0
fi
near_rows_run
echo "near rows done after $(elapsed) s"
run_points quant_bw_probe 150 0 1 8
echo "quant probe done after $(elapsed) s"
