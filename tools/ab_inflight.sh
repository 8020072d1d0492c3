#!/usr/bin/env bash
# Session 16: the wgmma kernel keeping one wgmma group in flight (the tree) against the
# package copy ab_main/ (the same tree before that change and before 32-token stream-K tiles
# at M <= 32) through the public functions: ``ab_public_large_m`` in device_common.sh. The
# in-flight loop measured slower and was never committed (the module docstring of
# nvfp4_gemm_large_m.py says what it was): rerunning this needs it written into the tree again.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_inflight.sh   (~450 s)
source "$(dirname "$0")/device_common.sh"
ab_public_large_m
echo "done after $(elapsed) s"
