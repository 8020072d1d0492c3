#!/usr/bin/env bash
# Issue 4, prepared in session 70 without a device (~330 s): the quantization kernel with the
# next two items' loads in flight (``NVFP4Quant(prefetch=2)``: three register buffers trading
# roles, 96 registers, 5 CTAs an SM; notes/quant-bw.md "Session 70"). Its bit tests beside the
# probe's warm-ups, memcheck + racecheck on tools/quant_sanitize_probe.py (a prefetch=2 launch
# among them), then tools/quant_bw_probe.py at plain M = 4096 K = 5120 / 7168 / 17408 / 18432
# and M = 16384 K = 5120 (variant cmp5tp2 beside the default cmp6tp; every variant's outputs
# compared with the old kernel's).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session71_quant.sh
source "$(dirname "$0")/../device_common.sh"
quant_tests_and_probe "0 1 2 3 4" tests/test_nvfp4_quant.py -k "two_items or every_kernel"
echo "done after $(elapsed) s"
