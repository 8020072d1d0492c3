#!/usr/bin/env bash
# Next session's second device call: the swiglu suite, the demo and the nvfp4_gemm suite (cache
# filled first by one warm-up process per suite shape), until 560 s after the start.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session8_suites.sh
source "$(dirname "$0")/../device_common.sh"
warm_suites
wait
echo "warm-up done after $(elapsed) s"
final_suites 560
