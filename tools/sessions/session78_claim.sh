#!/usr/bin/env bash
# Issue 4 (~200 s): claimed items again, the claims spread over 32 counters a cache line apart
# (`CLAIM_SHARDS`; warp w claims from shard w % 32, whose c-th claim is item start + 32 c +
# shard). Session 77 (call 11, H200) measured one counter for the grid: the claims serialized
# at ~2 ns each and lost 20-40 points (plain M = 4096 K = 5120 cmp6tp 74.3 -> cmp6tpc1 45.5%).
# At 32 shards a counter sees a claim every ~30 ns. The claiming loop takes 72 registers (7
# CTAs of 128 threads fit an SM), so the probe has it at 6 an SM (cmp6tpc1, where a 7th may
# land from the next grid) and at 7 with the bound (cmp7tpc1 / c2, against cmp7tp). The bit
# tests (three launches on one counters buffer; grids of fewer warps than shards), memcheck
# on tools/quant_sanitize_probe.py, then tools/quant_bw_probe.py at plain M = 4096 K = 5120 /
# 7168, M = 16384 K = 5120 and fused M = 4096 I = 5120 (every output compared with the old
# kernel's). Where a claiming variant beats the default at every point, set
# nvfp4_quant.CLAIM_ROUNDS (and the CTAs an SM in launch_config) and run the quant suite.
# Ran in session 78 (H100, call 14): the claims lost; removed, so this script needs
# `git apply notes/quant-claim.patch` first.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session78_claim.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpc1,cmp7tp,cmp7tpc1,cmp7tpc2,cmp8v2tp,cmp8v2tpc1,cmp8v2tpc2
quant_memcheck_and_probe "0 1 4 8" tests/test_nvfp4_quant.py -k claimed
echo "done after $(elapsed) s"
