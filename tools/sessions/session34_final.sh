#!/usr/bin/env bash
# Session 34's last call (~200 s): the GPU tests the final routing touches: the fused op's
# half-group route (``half_group_route``, M = 17 / 64 / 128 / 200) and the fp32 split route (its
# quantization's new launch options), ``nvfp4_gemm``'s routes (``wg_k_pairs``), the models.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session34_final.sh
source "$(dirname "$0")/../device_common.sh"
gpu_tests 200 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "half_group or split_route or matches_reference or graph" &
gpu_tests 200 /tmp/logs/t-gemm.log tests/test_nvfp4_gemm.py -k "route or reference" &
gpu_tests 200 /tmp/logs/t-models.log tests/models &
wait
test_summary | tee "$OUT/checks.txt"
echo "done after $(elapsed) s"
