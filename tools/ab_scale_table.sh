#!/usr/bin/env bash
# Branch wgmma-scale-table (session 16, prepared on the CPU, not yet run): the wgmma kernel's
# scale splats from a 256-entry shared-memory table (SCALE_TABLE; 200 -> 184 SASS instructions
# per two k-tiles on permuted words, 348 -> 324 packed) against main's package (ab_main/ =
# `git archive main cute_kernels layouts`, made on the CPU and carried: carry [".gpu", "ab_main"])
# through the public functions at M = 32, 64, 256: ``ab_public_large_m`` in device_common.sh.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_scale_table.sh   (~320 s)
source "$(dirname "$0")/device_common.sh"
ab_public_large_m
echo "done after $(elapsed) s"
