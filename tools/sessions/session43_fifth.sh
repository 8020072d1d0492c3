#!/usr/bin/env bash
# Session 43's fifth call (~450 s): the final checks on the new launch rules (one-wave
# launches triggered at the CTA start, one staged token over one wave, the fused register
# path at the start) and without the cluster-pair kernel: memcheck / racecheck on
# tools/sanitize_probe.py, the GEMM / fused / model / PDL GPU tests, then the nvfp4_gemm
# suite's 9216x7168 and 4096x7168.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_fifth.sh
source "$(dirname "$0")/../device_common.sh"
start_final_checks
gpu_tests 280 /tmp/logs/t-pdl.log tests/test_pdl_trigger.py tests/test_small_m_occupancy.py &
report_checks
run_suite nvfp4_gemm 100 4 5
suite_lines "1|4|8|16|64"
echo "done after $(elapsed) s"
