#!/usr/bin/env bash
# Session 30's third call (~250 s): the GPU tests of the fused op's new W4A16 regime and packed
# route; tools/fused_w4a16_regime_probe.py at permuted 34816x5120 M = 6 / 7 (the interpolated
# bar); then Nsight Compute on the mid-M points of the small weights (the 1.5x QuACK and
# 0.9x cuBLAS targets: 4096x7168 M = 32 / 64 / 256, 7168x2048 M = 64 / 256), per kernel of
# nvfp4_gemm's launch (dequantize, GEMM, split-K sum) and cuBLAS.
# Usage on the lent H200: source .gpu/setup.sh; bash tools/sessions/session30_third.sh
source "$(dirname "$0")/../device_common.sh"
warm_points fused_w4a16_regime_probe 200 21 22
gpu_tests 250 /tmp/logs/t-fused.log tests/test_nvfp4_gemm_swiglu_quant.py \
  -k "narrow_route or packed_route or w4a16 or regime"
wait
test_summary
CUTE_KERNELS_BENCH_SHAPES=21,22 timeout 200 python tools/fused_w4a16_regime_probe.py \
  2>&1 | tee "$OUT/fused_w4a16.log"
CUTE_KERNELS_PROFILE_CASES="4096,7168,32;4096,7168,64;4096,7168,256;7168,2048,64;7168,2048,256" \
  timeout 300 ncu --profile-from-start off --clock-control none \
  --metrics gpu__time_duration.sum,lts__t_bytes.sum.per_second,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,sm__cycles_elapsed.avg.per_second,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread \
  python tools/l2_profile.py > "$OUT/ncu.txt" 2>&1
echo "ncu exit $? after $(elapsed) s"
grep -vE "^==PROF==|^    ---" "$OUT/ncu.txt" | grep -E "plan|^  [a-zA-Z_]|[a-z_]+__" | head -150
