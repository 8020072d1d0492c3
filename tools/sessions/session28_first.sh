#!/usr/bin/env bash
# Prepared in session 27 for session 28's first call (~150 s), on branch w4a16-register-prefetch
# (git checkout w4a16-register-prefetch first): the GPU tests of its two new W4A16 configs
# (1, 1, 4, 0) and (2, 1, 4, 0, 3) in the plain small-M kernel, and the W4A16 prefetch probe on
# the rule (its "rule" column should be the faster everywhere). If both pass, merge the branch.
# Then packed bytes at 32 NVFP4 tokens in the plain GEMM: the public route (wgmma kernel)
# against the small kernel's configs (~100 s).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session28_first.sh
source "$(dirname "$0")/../device_common.sh"
warm_points plain_w4a16_prefetch_probe 120 0 1 2 3 4
export CUTE_KERNELS_PROBE_M=32
warm_points plain_packed_narrow_probe 200 0 1 2 3
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py \
  -k "every_tile_config or public_small_m or w4a16" &
wait
echo "warm-up + tests done after $(elapsed) s: gemm tests $(tail -1 /tmp/logs/t-gemm.log)"
grep -E "^FAILED|^ERROR|^E  " /tmp/logs/t-gemm.log | head -10
timeout 90 python tools/plain_w4a16_prefetch_probe.py 2>&1 | tee "$OUT/w4a16_plain.log"
timeout 150 python tools/plain_packed_narrow_probe.py 2>&1 | tee "$OUT/packed_m32.log"
echo "done after $(elapsed) s"
