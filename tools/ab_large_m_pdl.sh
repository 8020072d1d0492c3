#!/usr/bin/env bash
# Session 16: PDL for the wgmma route (the tree: the activations' dequantization kernel lets the
# GEMM launch at once; the GEMM prefetches its first weight k-tiles to L2, then waits) against
# the package copy ab_main/ (the tree before it) through the public functions: ``ab_public_large_m`` in device_common.sh.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_large_m_pdl.sh   (~300 s)
source "$(dirname "$0")/device_common.sh"
ab_public_large_m
echo "done after $(elapsed) s"
