#!/usr/bin/env bash
# Session 43's sixth call (~300 s): the nvfp4_gemm suite's 7168x18432, 5120x17408 and
# 7168x2048 and the swiglu suite's 9216x7168 and 4096x7168 on the new launch rules.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite nvfp4_gemm 0 1 6
warm_suite swiglu 1 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail -20
run_suite nvfp4_gemm 100 0 1 6
run_suite swiglu 100 1 3
grep -h "permuted M=" "$OUT"/bench-*.log | grep -E "M=(1|4|8|16|64) " | cut -c1-175
echo "done after $(elapsed) s"
