#!/usr/bin/env bash
# Session 43's second call (prepared in session 42, ~300 s): the fused cluster-pair kernel
# (cute_kernels/swiglu_small_m_pairs.py, compile-tested only): its GPU tests (fp64 reference,
# bit for bit against (2, 1, 4, 1)), memcheck and racecheck on tools/sanitize_pairs.py, then
# tools/pairs_probe.py (public route against the pairs at M = 1 / 4 / 8 on four shapes).
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session43_second.sh
source "$(dirname "$0")/../device_common.sh"
warm_points pairs_probe 250 0 1 2 3
gpu_tests 300 /tmp/logs/t-pairs.log tests/test_nvfp4_gemm_swiglu_quant.py -k cluster_pairs &
report_warm_and_tests
sanitize_script sanitize_pairs
timeout 200 python tools/pairs_probe.py 2>&1 | tee "$OUT/pairs_probe.log"
echo "done after $(elapsed) s"
