#!/usr/bin/env bash
# Prepared in session 24: both suites (swiglu, the demo, nvfp4_gemm shape by shape) on the
# mid-M plans (mid_m_launch) and padded activations, after one warm-up process per shape.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session25_suites.sh   (~590 s)
source "$(dirname "$0")/../device_common.sh"
warm_suites
wait
echo "warm-up done after $(elapsed) s"; grep -l -E "Error|Traceback" /tmp/logs/warm-*.log | head
final_suites 580
echo "done after $(elapsed) s"
