#!/usr/bin/env bash
# Session 17 (run on branch wgmma-k128, H200 2026-11-30: notes/raw/s17-ab-wgmma-decode.txt;
# main then took the table for token tiles <= 128 and two K groups for 32-token stream-K tiles
# only, ``stream_k_groups``): the wgmma kernel's decode with fewer instructions per weight,
# three packages through the public functions at M = 32, 64, 256 (``ab_public_large_m`` in
# device_common.sh; tests and sanitizers on the tree):
#   ab_main/   main                                                   (~100 SASS per 64 K)
#   ab_table/  branch wgmma-scale-table: scale splats from a shared table   (~92)
#   .          this tree: the table + two 64-element K groups per stage     (~80.5)
# Prepare on the CPU (both copies are git-ignored and carried: carry [".gpu", "ab_main",
# "ab_table"]):
#   rm -rf ab_main ab_table && mkdir ab_main ab_table
#   git archive main cute_kernels layouts | tar -x -C ab_main
#   git archive wgmma-scale-table cute_kernels layouts | tar -x -C ab_table
# Usage on the lent H200: source .gpu/setup.sh; bash tools/ab_wgmma_decode.sh   (~480 s)
source "$(dirname "$0")/device_common.sh"
ab_public_large_m ab_main ab_table .
echo "done after $(elapsed) s"
