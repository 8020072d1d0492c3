#!/usr/bin/env bash
# Session 81's tenth call (~300 s): on an H200 session81_eighth.sh; on an H100 the GPU tests
# of the public ops after the decode's split into reads and conversion (the fused op, the
# plain op, the early release, the models), in 12 shards.
# The device copies at most 64 MiB: move notes/raw aside for the call.
# Usage on the lent GPU: source .gpu/setup.sh; bash tools/sessions/session81_tenth.sh
source "$(dirname "$0")/../device_common.sh"
if nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200; then
  bash "$(dirname "$0")/session81_eighth.sh"
  exit
fi
all_gpu_tests 12 330 tests/test_nvfp4_gemm_swiglu_quant.py tests/test_nvfp4_gemm.py \
  tests/test_early_release.py tests/test_k_order.py tests/models
echo "done after $(elapsed) s"
