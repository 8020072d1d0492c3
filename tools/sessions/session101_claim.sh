#!/usr/bin/env bash
# Issue 4, session 101 (~250 s, either card): the quantizer's claimed last rounds again, now on
# 32 counters that wrap to zero on a launch's last claim (atom.inc): no end-of-warp arrival
# (acq_rel, which waits for the warp's stores) and no zeroing, which session 78's form paid
# in the drain (7-9 points down at plain M = 4096 on the H100). The claim GPU tests and
# memcheck on tools/quant_sanitize_probe.py (claim launches included), then
# tools/quant_bw_probe.py at plain M = 4096 K = 5120 / 7168, M = 16384 K = 5120 and fused
# M = 4096 I = 5120, the defaults beside their claimed forms. On the H100 the static split's
# spread shows too (session 100's timeline: SMs end 16.6-19.6 us, 7.6% of the SM time idle).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session101_claim.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpc1,cmp6tpc2,cmp7tp,cmp7tpc1,cmp7tpc2,cmp8v2tp,\
cmp8v2tpc1,cmp8v2tpc2
gpu_tests 200 /tmp/logs/t-claim.log tests/test_nvfp4_quant.py -k "claim" &
warm_points quant_bw_probe 150 0 1 4 8
report_warm_and_tests
timeout 150 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 \
  python tools/quant_sanitize_probe.py > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $? $(grep -E 'ERROR SUMMARY' "$OUT/memcheck.log" | tail -1) ($(elapsed) s)"
run_points quant_bw_probe 200 0 1 4 8
echo "quant probe done after $(elapsed) s"
