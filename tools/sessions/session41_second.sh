#!/usr/bin/env bash
# Session 41's second call (prepared in session 40, ~450 s): the swiglu suite on every shape
# (issue 6's tables are session 38's; session 40's prefetch moved its probe points 0.2-1.2 us)
# and the nvfp4_gemm suite on the two shapes session 40 left out (36864x7168, 34816x5120).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session41_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 0 1 2 3 4
warm_suite nvfp4_gemm 2 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
run_suite swiglu 90 0 1 2 3 4
run_suite nvfp4_gemm 100 2 3
suite_lines "1|16|64|256|1024"
echo "done after $(elapsed) s"
