#!/usr/bin/env bash
# Issue 4, prepared in session 75 without a device (~300 s): the quantization kernels'
# ``lean`` option (notes/quant-bw.md "Session 75"): the prefetch's two register buffers swap
# roles instead of the 16-register copy, loads that are off are not zeroed first, plain
# whole rows take flat addresses, and the codes' masks merge in chains. SASS (CPU) an item:
# plain M = 4096 (cmp6tp) K = 5120 376 -> 323.5, K = 7168 379 -> 325.5; past the prefetch
# bound (cmp9t) 353 -> 317; fused (cmp8v2tp) 383 -> 344.5. Its bit tests beside the probe's warm-ups, memcheck + racecheck on
# tools/quant_sanitize_probe.py (lean launches among them), then tools/quant_bw_probe.py at
# plain M = 4096 K = 5120 / 7168 / 17408 / 18432, M = 16384 K = 5120 and fused M = 4096
# I = 5120 / 7168, each variant beside its lean form (every output compared with the old
# kernel's). Where a lean form wins everywhere, make it the public launch (launch_config).
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session75_quant.sh
source "$(dirname "$0")/../device_common.sh"
export QUANT_PROBE_VARIANTS=cmp6tp,cmp6tpl,cmp9t,cmp9tl,cmp8v2tp,cmp8v2tpl
quant_tests_and_probe "0 1 2 3 4 8 9" tests/test_nvfp4_quant.py -k "lean or every_kernel"
echo "done after $(elapsed) s"
