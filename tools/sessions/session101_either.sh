#!/usr/bin/env bash
# Session 101 (either card; ~250 s on an H100, ~480 s on an H200): session101_claim.sh (the
# claimed last rounds on wrapping counters: tests, memcheck, the quant probe), and on an H200
# first session97_near.sh's rows (the near-miss suite rows, ~200 s cold), all warmed side by
# side. The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session101_either.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpc1,cmp6tpc2,cmp7tp,cmp7tpc1,cmp7tpc2,cmp8v2tp,\
cmp8v2tpc1,cmp8v2tpc2
gpu_tests 200 /tmp/logs/t-claim.log tests/test_nvfp4_quant.py -k "claim" &
warm_points quant_bw_probe 150 0 1 4 8
if on_h200; then
  warm_at_ms 1 nvfp4_gemm 4
  near_miss_warm
fi
report_warm_and_tests
if on_h200; then
  near_rows_run
  echo "near rows done after $(elapsed) s"
fi
run_points quant_bw_probe 200 0 1 4 8
echo "quant probe done after $(elapsed) s"
timeout 120 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  python tools/quant_sanitize_probe.py > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) ($(elapsed) s)"
