#!/usr/bin/env bash
# Session 76's rule check (~180 s, the session's last device seconds): the balanced one-token
# rule changed after call 7 ((12, 2) at 5120x17408, (8, 3) where four fit: 9216x7168, the fused
# op's W4A16 at (8, 2)); the balanced GPU tests (the new forms against fp64) beside the
# nvfp4_gemm suite's warm-ups, then its 5120x17408 and 9216x7168 (M = 1 rows against call 7's
# and call 9's).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session76_rules.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 150 /tmp/logs/t-balanced2.log tests/test_nvfp4_gemm_balanced.py &
warm_suite nvfp4_gemm 1 4
wait
echo "tests + warm-up done after $(elapsed) s"; tail -1 /tmp/logs/t-balanced2.log
grep -E "^FAILED|^ERROR" /tmp/logs/t-balanced2.log | head; cp /tmp/logs/t-balanced2.log "$OUT/"
run_suite nvfp4_gemm 80 1 4
grep -hE "permuted M=(1|4|16) " "$OUT"/bench-nvfp4_gemm*.log | cut -c1-140
echo "done after $(elapsed) s"
