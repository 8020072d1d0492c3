#!/usr/bin/env bash
# Session 101 (either card; ~300 s on an H100, ~400 s on an H200). The public quantizer now
# claims its last rounds // 4 of items where a warp has >= 6 rounds (wrapping counters, no
# end-of-warp arrival; H100 calls 2-6: +0.5-3 points at M >= 4096). In order:
# - (not with "h200") the claim and stamp GPU tests;
# - the quant probe (cmp6tp / cmp8v2tp without claims against cmp6tpq4 / cmp8v2tpq4, the new
#   defaults) at plain M = 4096 K = 5120 / 7168 / 17408, M = 16384 K = 5120, fused M = 4096
#   I = 5120 / 7168, and M = 2048 / 1024 (no claims there by default);
# - on an H200 the quant suite (issue 4's rows) and session97_near.sh's rows;
# - (not with "h200") memcheck on tools/quant_sanitize_probe.py (claim launches included).
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session101_either.sh [h200]
# ("h200": stop at once on an H100, where calls 2-8 measured it; no tests, no memcheck, the
# probe at plain M = 4096 K = 5120 / 7168 and fused M = 4096 I = 5120 only; "h200short": as
# h200 without the near rows, ~250 s).
source "$(dirname "$0")/../device_common.sh"
mode=${1:-}
short=
[ "$mode" = h200short ] && mode=h200 && short=1
[ "$mode" = h200 ] && only_on_h200
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpq4,cmp8v2tp,cmp8v2tpq4
if [ "$mode" != h200 ]; then
  gpu_tests 240 /tmp/logs/t-claim.log tests/test_nvfp4_quant.py tests/test_quant_timeline.py \
    tests/test_quant_claims.py -k "claim or stamp" &
fi
points="0 1 2 4 8 9 28 29 30"
[ "$mode" = h200 ] && points="0 1 8" && QUANT_PROBE_VARIANTS+=,cmp7tp,cmp7tpq4,cmp8tp,cmp8tpq4
warm_points quant_bw_probe 150 $points
if on_h200; then
  CUTE_KERNELS_BENCH_WARM=1 timeout 200 python -m cute_kernels.bench quant --out /tmp/warmq \
    > /tmp/logs/warm-quant.log 2>&1 &
  if [ -z "$short" ]; then warm_at_ms 1 nvfp4_gemm 4; near_miss_warm; fi
fi
if [ "$mode" = h200 ]; then report_warm; else report_warm_and_tests; fi
run_points quant_bw_probe 150 $points
echo "quant probe done after $(elapsed) s"
if on_h200; then
  timeout 150 python -m cute_kernels.bench quant --out "$OUT/quant" > "$OUT/bench-quant.log" 2>&1
  echo "quant suite rc=$? after $(elapsed) s"; grep -E "M=4096|4096 " "$OUT/bench-quant.log" | head -12
  if [ -z "$short" ]; then near_rows_run; echo "near rows done after $(elapsed) s"; fi
fi
if [ "$mode" != h200 ]; then
  timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
    python tools/quant_sanitize_probe.py > "$OUT/memcheck.log" 2>&1
  echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) ($(elapsed) s)"
fi
