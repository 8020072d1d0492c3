#!/usr/bin/env bash
# Issue 4 (~200 s): claimed items in the quantizer (`NVFP4Quant(claim=N)`: the last N rounds
# of work items come from a counter, so warps that ran fast take more and the SMs drain
# together). Session 77's ncu (H100, notes/raw/s77-call2-quant-ncu.txt) had the SMs active
# 84% of the elapsed cycles at plain M = 4096 K = 5120 (92% at M = 16384). The bit tests
# (three launches on one counter pair), memcheck on tools/quant_sanitize_probe.py
# (claim launches among them), then tools/quant_bw_probe.py at plain M = 4096 K = 5120 / 7168,
# M = 16384 K = 5120 and fused M = 4096 I = 5120: cmp6tp against cmp6tpc1 / c2,
# cmp8v2tp against cmp8v2tpc2 (every output compared with the old kernel's).
# Ran in session 77 (call 11, H200): claiming lost everywhere (plain M = 4096 K = 5120 74.3 ->
# 45.5%): one counter serialized the claims. The option now spreads them over CLAIM_SHARDS
# counters (session78_claim.sh); CLAIM_SHARDS = 1 reruns this form (cmp6tpc2 is gone).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session77_claim.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpc1,cmp6tpc2,cmp8v2tp,cmp8v2tpc2
# (memcheck only: the claims touch no shared memory; the device budget was short)
quant_memcheck_and_probe "0 1 4 8" tests/test_nvfp4_quant.py -k claimed
echo "done after $(elapsed) s"
