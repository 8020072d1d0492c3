#!/usr/bin/env bash
# Session 41's sixth call (~300 s): the nvfp4_gemm suite on 36864x7168 and 34816x5120 (the
# weights-before-wait rule's shapes) and the swiglu suite's first three shapes on session 40's
# prefetch (issue 6's tables are session 38's).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session41_sixth.sh
source "$(dirname "$0")/../device_common.sh"
warm_suite swiglu 0 1 2
warm_suite nvfp4_gemm 2 3
wait
echo "warm-up done after $(elapsed) s"; grep -h -A8 Traceback /tmp/logs/warm-*.log | tail
run_suite nvfp4_gemm 100 2 3
run_suite swiglu 90 0 1 2
suite_lines "1|16|64|256|1024"
echo "done after $(elapsed) s"
