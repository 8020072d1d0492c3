#!/usr/bin/env bash
# Issue 4, prepared in session 75 without a device (~450 s): the quantization kernels'
# ``lean`` option (notes/quant-bw.md "Session 75"): the prefetch's two register buffers swap
# roles instead of the 16-register copy (both first items' loads before the table fill),
# loads that are off are not zeroed first, plain whole rows take flat addresses, and the
# codes' masks merge in chains. SASS (CPU) an item: plain M = 4096 (cmp6tp) K = 5120 376 ->
# 322.5, K = 7168 379 -> 324.5; past the prefetch bound (cmp9t) 353 -> 317; fused (cmp8v2tp)
# 383 -> 350. Its bit tests beside the probe's
# warm-ups, memcheck + racecheck on tools/quant_sanitize_probe.py (lean launches among them),
# then tools/quant_bw_probe.py at
# plain M = 4096 K = 5120 / 7168 / 17408 / 18432, M = 16384 K = 5120 and fused M = 4096
# I = 5120 / 7168, each variant beside its lean form (every output compared with the old
# kernel's), then the quant suite on lean launches (quant-lean.out). Where a lean form wins
# everywhere, make it the public launch (nvfp4_quant.LEAN_LAUNCH = True) and keep that suite's
# output as the issue's rows (rename it .log in notes/raw).
# Ran in session 76 (call 6): lean lost and was removed; to rerun, `git apply
# notes/quant-lean.patch` first.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session75_quant.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpl,cmp9t,cmp9tl,cmp8v2tp,cmp8v2tpl
# (the lean bit tests compile ~40 kernels: a longer limit, beside the ones below)
gpu_tests 420 /tmp/logs/t-lean.log -k lean tests/test_nvfp4_quant.py &
quant_tests_and_probe "0 1 2 3 4 8 9" tests/test_nvfp4_quant.py -k every_kernel
# The quant suite with the public launches on lean (nvfp4_quant.LEAN_LAUNCH), for the issue's
# rows. Kept as quant-lean.out (not .log / .json): bench.targets must not read it as the
# library's rows unless lean becomes the default.
timeout 200 python -c "import sys; import cute_kernels.nvfp4_quant as q; \
q.LEAN_LAUNCH = True; from cute_kernels.bench.__main__ import main; \
sys.exit(main(['quant', '--out', '/tmp/quant-lean']))" > "$OUT/quant-lean.out" 2>&1
echo "quant suite (lean) exit $? at $(elapsed) s"
grep -E "M=4096|M=16384" "$OUT/quant-lean.out" | cut -c1-175
echo "done after $(elapsed) s"
